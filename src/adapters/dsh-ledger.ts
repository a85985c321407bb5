// Where the ledger lines of seed 002 section 7 go: the plugin's logger and,
// when configured, the `[ISO] message` lines of `logFile`. Best-effort: a file
// that cannot be written degrades to the logger alone, with one warning.
import { appendFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { StoreEvent } from './dsh-ports.js';

export interface LedgerLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface Ledger {
  /** One ledger line (already formatted, e.g. `ccr: retrieved <hash>`). */
  write(line: string): void;
}

/** `~/...` resolved against the home directory; '' stays '' (no file). */
export function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

export function createLedger(logger: LedgerLogger, options: { enabled: boolean; file: string; now?: () => Date }): Ledger {
  const file = expandHome(options.file);
  const now = options.now ?? (() => new Date());
  let fileBroken = file === '';
  return {
    write(line) {
      if (!options.enabled) return;
      logger.info(line);
      if (fileBroken) return;
      try {
        mkdirSync(dirname(file), { recursive: true });
        appendFileSync(file, `[${now().toISOString()}] ${line}\n`);
      } catch (error) {
        fileBroken = true;
        logger.warn(`squeeze: cannot append to ${file} (${String(error)}); ledger goes to the logger only`);
      }
    },
  };
}

/** Seed 002 section 7: the ledger strings, byte for byte. */
export const lines = {
  activated: (version: string, targets: number, budget: number) =>
    `ccr: activated (bundle ${version}, targets ${targets}, budget ${budget})`,
  compressed: (tool: string, type: string, bytes: number, id: string) => `ccr: compressed ${tool} ${type} ${bytes} -> ${id}`,
  stored: (tool: string, type: string, bytes: number, id: string) => `ccr: stored ${tool} ${type} ${bytes} -> ${id}`,
  evicted: (id: string, reason: 'budget' | 'ttl') => `ccr: evicted ${id} (${reason})`,
  retrieved: (id: string) => `ccr: retrieved ${id}`,
  retrievalMiss: (id: string, reason: 'expired' | 'unknown') => `ccr: retrieval miss ${id} (${reason})`,
  engineArchived: (n: number) => `ccr: engine archived ${n} results`,
};

export function storeEventLine(event: StoreEvent): string {
  switch (event.kind) {
    case 'evicted':
      return lines.evicted(event.id, event.reason);
    case 'retrieved':
      return lines.retrieved(event.id);
    case 'miss':
      return lines.retrievalMiss(event.id, event.reason);
  }
}
