// The journal under crashes, damage and failure (seed 002 section 5).
import { spawn } from 'node:child_process';
import {
  appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, originalId, type StoreOptions } from '../../src/store/index.js';
import { writerText } from '../support/journal-writer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function journalIn(...parts: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-journal-'));
  dirs.push(dir);
  return join(dir, ...parts, 'journal.jsonl');
}
function reopen(journalPath: string, options: StoreOptions = {}) {
  const warnings: string[] = [];
  const store = createStore({ journalPath, warn: (m) => warnings.push(m), ...options });
  return { store, warnings };
}
function textOf(store: ReturnType<typeof createStore>, id: string): string | undefined {
  const lookup = store.get(id);
  return lookup.found ? lookup.entry.text : undefined;
}

describe('journal', () => {
  /** Runs the writer until `killAt` reports, SIGKILLs it, and returns the completed stores. */
  async function killWriter(path: string, args: string[], killAt: (done: number, line: string) => boolean) {
    const writer = resolve(import.meta.dirname, '../support/journal-writer.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', writer, path, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const done: Array<[number, string]> = [];
    let pending = '';
    await new Promise<void>((resolveKill, reject) => {
      child.on('error', reject);
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const [i, id] = line.split(' ');
          if (id) done.push([Number(i), id]);
          if (killAt(done.length, line) && !child.killed) child.kill('SIGKILL');
        }
      });
      child.on('close', () => resolveKill());
    });
    return done;
  }

  function expectAllComplete(path: string, done: Array<[number, string]>) {
    const { store, warnings } = reopen(path);
    for (const [i, id] of done) expect(textOf(store, id), `record ${i}`).toBe(writerText(i));
    expect(warnings).toEqual([]);
    expect(store.count).toBeGreaterThanOrEqual(done.length);
    expect(store.count).toBeLessThanOrEqual(done.length + 1);
  }

  it('keeps every complete record when a free-running writer is SIGKILLed', async () => {
    const path = journalIn();
    const done = await killWriter(path, [], (n) => n >= 40);
    expect(done.length).toBeGreaterThanOrEqual(40);
    expectAllComplete(path, done);
  }, 60_000);

  it('keeps every complete record when the writer is SIGKILLed in the middle of an append', async () => {
    const path = journalIn();
    const done = await killWriter(path, ['12'], (_, line) => line === 'torn');
    expect(done).toHaveLength(12);
    const data = readFileSync(path);
    expect(data[data.length - 1]).not.toBe(0x0a);
    expectAllComplete(path, done);
    expect(readFileSync(path).at(-1)).toBe(0x0a);
  }, 60_000);

  it('skips a torn last line, compacts it away, and appends cleanly after', () => {
    const path = journalIn();
    const first = createStore({ journalPath: path });
    const a = first.put('alpha\n', { type: 'file' });
    const b = first.put('beta\n', { type: 'file' });
    const size = statSync(path).size;
    truncateSync(path, size - 20);
    const second = reopen(path).store;
    expect(textOf(second, a.id)).toBe('alpha\n');
    expect(textOf(second, b.id)).toBeUndefined();
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    const c = second.put('gamma\n', { type: 'file' });
    const third = reopen(path).store;
    expect(textOf(third, a.id)).toBe('alpha\n');
    expect(textOf(third, c.id)).toBe('gamma\n');
  });

  it('skips corrupt lines, never serves a tampered one, and keeps the rest', () => {
    const path = journalIn();
    const first = createStore({ journalPath: path });
    const a = first.put('kept one', { type: 'default' });
    appendFileSync(path, 'not json at all\n{"hash":"zz"}\n');
    const forged = { hash: originalId('other'), type: 'default', size: 8, ttlAt: Date.now() + 1e6, payload: Buffer.from('tampered').toString('base64') };
    appendFileSync(path, `${JSON.stringify(forged)}\n`);
    const b = first.put('kept two', { type: 'default' });
    const { store, warnings } = reopen(path);
    expect(textOf(store, a.id)).toBe('kept one');
    expect(textOf(store, b.id)).toBe('kept two');
    // Its bytes are checked against its id when first asked for, and it is dropped then.
    expect(store.get(forged.hash)).toEqual({ found: false, reason: 'unknown' });
    expect(store.count).toBe(2);
    expect(warnings).toEqual([]);
  });

  it('opens an empty or missing file as an empty store and creates it 0600 in a 0700 directory', () => {
    const missing = journalIn('new', 'dir');
    const store = reopen(missing).store;
    expect(store.count).toBe(0);
    const { id } = store.put('first', { type: 'default' });
    expect(statSync(missing).mode & 0o777).toBe(0o600);
    expect(statSync(join(missing, '..')).mode & 0o777).toBe(0o700);
    expect(textOf(reopen(missing).store, id)).toBe('first');

    const empty = journalIn();
    writeFileSync(empty, '');
    const fromEmpty = reopen(empty);
    expect(fromEmpty.store.count).toBe(0);
    expect(fromEmpty.warnings).toEqual([]);
  });

  it('drops expired records on load, keeps saying "expired" for them, and rewrites atomically', () => {
    const path = journalIn();
    let t = 1_000_000;
    const now = () => t;
    const first = createStore({ journalPath: path, ttlSeconds: 10, now });
    const old = first.put('old text', { type: 'default' });
    t += 5_000;
    const young = first.put('young text', { type: 'default' });
    t += 6_000;
    const second = reopen(path, { ttlSeconds: 10, now }).store;
    expect(second.get(old.id)).toEqual({ found: false, reason: 'expired' });
    expect(textOf(second, young.id)).toBe('young text');
    expect(readFileSync(path, 'utf8')).not.toContain(Buffer.from('old text').toString('base64'));
    expect(readdirSync(join(path, '..'))).toEqual(['journal.jsonl']);
    t += 10_000;
    const allExpired = reopen(path, { ttlSeconds: 10, now }).store;
    expect(allExpired.count).toBe(0);
    expect(allExpired.get(young.id)).toEqual({ found: false, reason: 'expired' });
    expect(reopen(path, { ttlSeconds: 10, now }).store.get(old.id)).toEqual({ found: false, reason: 'expired' });
  });

  it('does not resurrect evicted entries and applies a smaller budget on load', () => {
    const path = journalIn();
    const first = createStore({ journalPath: path, storeBudgetBytes: 10 });
    const a = first.put('aaaa', { type: 'default' });
    const b = first.put('bbbb', { type: 'default' });
    const c = first.put('cccc', { type: 'default' });
    const bigger = reopen(path, { storeBudgetBytes: 1000 }).store;
    expect(bigger.get(a.id).found).toBe(false);
    expect(textOf(bigger, b.id)).toBe('bbbb');
    expect(textOf(bigger, c.id)).toBe('cccc');
    const smaller = reopen(path, { storeBudgetBytes: 5 }).store;
    expect(smaller.totalBytes).toBeLessThanOrEqual(5 + 4);
    expect(textOf(smaller, c.id)).toBe('cccc');
    expect(smaller.get(b.id).found).toBe(false);
  });

  it('replaces a tampered record with the real text when that text is stored again', () => {
    const path = journalIn();
    const id = originalId('the real text');
    const forged = { hash: id, type: 'default', size: 4, ttlAt: Date.now() + 1e6, payload: Buffer.from('fake').toString('base64') };
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `${JSON.stringify(forged)}\n`);
    const store = reopen(path).store;
    store.put('the real text', { type: 'default' });
    expect(textOf(store, id)).toBe('the real text');
    expect(textOf(reopen(path).store, id)).toBe('the real text');
  });

  it('compacts a running journal once evicted records dominate it', () => {
    const path = journalIn();
    const store = createStore({ journalPath: path, storeBudgetBytes: 1000, journalCompactBytes: 4096 });
    const texts = Array.from({ length: 200 }, (_, i) => `${i} ${'x'.repeat(300)}`);
    for (const text of texts) store.put(text, { type: 'default' });
    const size = statSync(path).size;
    expect(size).toBeLessThan(2 * 4096 + 2000);
    const reloaded = reopen(path, { storeBudgetBytes: 1000 }).store;
    expect(reloaded.count).toBe(store.count);
    for (const text of texts.slice(-3)) expect(textOf(reloaded, originalId(text))).toBe(text);
  });

  it('leaves the file alone when there is nothing to compact', () => {
    const path = journalIn();
    createStore({ journalPath: path }).put('steady', { type: 'default' });
    const before = statSync(path);
    reopen(path);
    const after = statSync(path);
    expect(after.ino).toBe(before.ino);
    expect(after.size).toBe(before.size);
  });

  it('degrades to memory only with exactly one warning when the journal cannot be read', () => {
    const parent = journalIn();
    mkdirSync(join(parent, '..'), { recursive: true });
    writeFileSync(join(parent, '..', 'a-file'), 'x');
    const { store, warnings } = reopen(join(parent, '..', 'a-file', 'journal.jsonl'));
    const { id } = store.put('still works', { type: 'default' });
    store.put('and again', { type: 'default' });
    expect(textOf(store, id)).toBe('still works');
    expect(store.journaling).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/memory only/);
  });

  it('degrades to memory only with exactly one warning when an append fails', () => {
    const path = journalIn();
    const { store, warnings } = reopen(path);
    mkdirSync(path);
    const { id } = store.put('first after failure', { type: 'default' });
    store.put('second after failure', { type: 'default' });
    expect(textOf(store, id)).toBe('first after failure');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path);
  });
});
