// A store another process keeps locked (SQLite's exclusive locking mode, a
// writer wedged mid-transaction): opening it waits SQLite's busy timeout
// (10 s), never longer, and the CLI then exits 6 saying who holds what, with
// no id printed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, DATABASE_FILE } from '../../src/store/store.js';
import { spawnCli } from '../support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'squeeze-locked-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const LOG = Array.from(
  { length: 3000 },
  (_, i) => `2026-12-02T10:00:00Z INFO request ${i} served in ${i % 97} ms`,
).join('\n');

describe('a store another process keeps locked', () => {
  it('compress and retrieve exit 6 after the busy timeout, saying another process holds the lock', async () => {
    const dir = join(root, 'store');
    const store = createStore({ dir });
    const { id } = store.put('kept before the lock', { type: 'file' });
    store.close();
    const holder = new Database(join(dir, DATABASE_FILE));
    holder.exec('PRAGMA locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      for (const args of [
        ['compress', '--store', dir],
        ['retrieve', id, '--store', dir],
      ]) {
        const started = performance.now();
        const run = await spawnCli(args, { stdin: LOG });
        const seconds = (performance.now() - started) / 1000;
        expect(run.code, run.stderr).toBe(6);
        expect(run.stderr).toMatch(/another process held the store's lock for over 10 s \(database is locked\)/);
        expect(run.stdout.toString()).not.toMatch(/<<<CCR:/);
        expect(seconds).toBeGreaterThan(9);
        expect(seconds).toBeLessThan(30);
      }
    } finally {
      holder.close();
    }
  }, 90_000);
});
