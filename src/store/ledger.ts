// The ledger (docs/GLOSSARY.md): its strings are a contract, byte for byte,
// so each is one pure function; the file sink adds `[ISO time] ` and nothing else.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { StoreEvent } from './store.js';

export const activated = (bundle: string, targets: number, budgetBytes: number): string =>
  `ccr: activated (bundle ${bundle}, targets ${targets}, budget ${budgetBytes})`;

export const compressed = (tool: string, type: string, bytes: number, hash: string): string =>
  `ccr: compressed ${tool} ${type} ${bytes} -> ${hash}`;

export const stored = (tool: string, type: string, bytes: number, hash: string): string =>
  `ccr: stored ${tool} ${type} ${bytes} -> ${hash}`;

export const evicted = (hash: string, reason: 'budget' | 'ttl'): string => `ccr: evicted ${hash} (${reason})`;

export const retrieved = (hash: string): string => `ccr: retrieved ${hash}`;

export const retrievalMiss = (hash: string, reason: 'expired' | 'unknown'): string =>
  `ccr: retrieval miss ${hash} (${reason})`;

/** A retrieval of a compressed result: how many of this tool's results were retrieved this session, and its level from now on. */
export const backedOff = (tool: string, hash: string, retrievals: number, key: string, level: string): string =>
  `ccr: retrieval ${retrievals} of ${tool} results this session (${hash}); next ${key} results at ${level}`;

/**
 * A wait outside the process that passed its deadline (the harness's spill
 * store saving a copy, its full-output file being read), and what the result
 * became: passed through, or compressed with the original kept under `id`
 * (undefined: the plugin keeps no originals).
 */
export const late = (
  wait: 'spill save' | 'full-output read',
  tool: string,
  ms: number,
  became: 'passed through' | { readonly id: string | undefined },
): string => {
  const kept =
    typeof became === 'string' ? '' : became.id === undefined ? ' (original not retained)' : ` -> ${became.id}`;
  const outcome =
    typeof became === 'string'
      ? became
      : wait === 'spill save'
        ? `kept in the CCR store only${kept}`
        : `compressed the harness's tail${kept}`;
  return `ccr: ${wait} for ${tool} timed out after ${ms} ms; ${outcome}`;
};

/** The ledger line for a store event. */
export function storeEventLine(event: StoreEvent): string {
  switch (event.kind) {
    case 'evicted':
      return evicted(event.id, event.reason);
    case 'retrieved':
      return retrieved(event.id);
    case 'miss':
      return retrievalMiss(event.id, event.reason);
  }
}

export interface LogSinkOptions {
  /** Off: messages are dropped. */
  readonly log: boolean;
  readonly logFile: string;
  readonly now?: () => number;
  /** Told once if the log file cannot be written (logging then stops). */
  readonly warn?: (message: string) => void;
}

/** A sink appending `[ISO time] message` lines to `logFile`; never throws. */
export function createLogSink(options: LogSinkOptions): (message: string) => void {
  if (!options.log || options.logFile === '') return () => {};
  const now = options.now ?? Date.now;
  let broken = false;
  let dirReady = false;
  return (message) => {
    if (broken) return;
    try {
      if (!dirReady) {
        mkdirSync(dirname(options.logFile), { recursive: true, mode: 0o700 });
        dirReady = true;
      }
      appendFileSync(options.logFile, `[${new Date(now()).toISOString()}] ${message}\n`, { mode: 0o600 });
    } catch (error) {
      broken = true;
      options.warn?.(`squeeze ledger: cannot write ${options.logFile} (${(error as Error).message}); logging stopped`);
    }
  };
}
