// Helpers for the store's fault tests and bench/store-faults.ts: writer
// processes (test/support/store-writer.ts) run, killed and checked.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { openStoreSpec } from '../../src/store/index.js';
import { textFor } from './store-writer.js';

const WRITER = resolve(import.meta.dirname, 'store-writer.ts');

export interface Writer {
  readonly child: ChildProcess;
  /** `[key, id]` of every put the writer reported complete. */
  readonly done: Array<[string, string]>;
  /** Resolves with the exit code (null when killed) once the process is gone. */
  readonly exited: Promise<number | null>;
  readonly stderr: () => string;
}

/** Starts a writer on `spec`; `onPut` sees each completed put (and may kill it). `script` speaks the same protocol. */
export function startWriter(
  spec: string,
  worker: number,
  count: number,
  maxBytes?: number,
  onPut?: (w: Writer) => void,
  script = WRITER,
): Writer {
  const args = [
    '--import',
    'tsx',
    script,
    spec,
    String(worker),
    String(count),
    ...(maxBytes === undefined ? [] : [String(maxBytes)]),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const done: Array<[string, string]> = [];
  let pending = '';
  let err = '';
  const writer: Writer = {
    child,
    done,
    exited: new Promise((resolveExit, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolveExit(code));
    }),
    stderr: () => err,
  };
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (err += chunk));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const [key, id] = line.split(' ');
      if (key && id) done.push([key, id]);
      onPut?.(writer);
    }
  });
  return writer;
}

export interface CheckResult {
  readonly checked: number;
  readonly lost: string[];
  readonly corrupt: string[];
}

/** Every reported put retrieves, byte for byte, from a fresh store on `spec`. */
export async function checkReported(
  spec: string,
  done: Iterable<[string, string]>,
  maxBytes?: number,
): Promise<CheckResult> {
  const store = openStoreSpec(spec);
  const lost: string[] = [];
  const corrupt: string[] = [];
  let checked = 0;
  try {
    for (const [key, id] of done) {
      checked++;
      const lookup = await store.get(id);
      if (!lookup.found) lost.push(`${key} ${id} (${lookup.reason})`);
      else if (lookup.entry.text !== textFor(key, maxBytes)) corrupt.push(`${key} ${id}`);
    }
  } finally {
    await store.close();
  }
  return { checked, lost, corrupt };
}

/** SQLite's own check of the whole database file: 'ok' or what is wrong. */
export function integrity(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .join('; ');
  } finally {
    db.close();
  }
}
