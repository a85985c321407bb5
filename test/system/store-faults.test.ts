// The store under faults: many writer processes at once, writers SIGKILLed at
// random points, and a store folder that is unsafe, read-only, full, damaged
// or left by an earlier version. Through the CLI and through the real harness,
// every id that was printed retrieves, and no original is ever claimed stored
// when it was not.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createStore, DATABASE_FILE, originalId } from '../../src/store/index.js';
import { runCli } from '../support/cli.js';
import { buildLog, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';
import { checkReported, integrity, startWriter, type Writer } from '../support/store-faults.js';

const root = mkdtempSync(join(tmpdir(), 'squeeze-faults-'));
const mounts: string[] = [];
afterAll(() => {
  // Lazy: a store still open in this process (the harness's plugin) must not keep the mount.
  for (const dir of mounts.splice(0)) execFileSync('umount', ['-l', dir]);
  rmSync(root, { recursive: true, force: true });
});
let counter = 0;
const fresh = (name: string) => join(root, `${name}-${++counter}`);

const isRoot = process.getuid?.() === 0;
const canMount = isRoot && process.platform === 'linux';
if (!canMount)
  console.warn('store fault tests: read-only and full-disk cases on tmpfs skipped (they need root to mount)');

/** A tmpfs of `size` at a new folder (root only), 0700 so the store accepts it. */
function tmpfs(size: string): string {
  const dir = fresh('tmpfs');
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

const LOG = buildLog(3000);

/** `squeeze compress --json` on LOG into `store`. */
async function compressJson(store: string, text = LOG) {
  const result = await runCli(['compress', '--json', '--tool', 'bash', '--store', store], { stdin: text });
  return {
    ...result,
    json: JSON.parse(result.stdout.toString('utf8')) as {
      output: string;
      id: string | null;
      stored: boolean;
      outcome: string;
      storeError?: string;
    },
  };
}

/** The CLI's contract when the store cannot keep the original: the text unchanged, one line on stderr, exit 6. */
async function expectNotStored(store: string, why: RegExp, text = LOG) {
  const plain = await runCli(['compress', '--tool', 'bash', '--store', store], { stdin: text });
  expect(plain.code).toBe(6);
  expect(plain.stdout.toString('utf8')).toBe(text);
  // The text ends mid-line: the notice starts its own.
  expect(plain.stderr).toMatch(/^\n?squeeze: the original could not be stored \(.*\); passed through unchanged\n$/);
  expect(plain.stderr).toMatch(why);
  const json = await compressJson(store, text);
  expect(json.code).toBe(6);
  expect(json.json.stored).toBe(false);
  expect(json.json.id).toBeNull();
  expect(json.json.output).toBe(text);
  expect(json.json.outcome).toBe('not-stored');
  expect(json.json.storeError).toMatch(why);
}

describe('store: concurrent writer processes', () => {
  for (const writers of [2, 8]) {
    it(`${writers} processes x 60 puts, 20% shared texts: 0 lost, 0 corrupt`, async () => {
      const dir = fresh(`writers-${writers}`);
      const running = Array.from({ length: writers }, (_, w) => startWriter(dir, w, 60));
      const codes = await Promise.all(running.map((w) => w.exited));
      expect(codes, running.map((w) => w.stderr()).join('\n')).toEqual(running.map(() => 0));
      // They created the store together: each saw it whole (never an empty file to set aside), and no draft is left.
      expect(running.map((w) => w.stderr()).join('')).not.toMatch(/damaged/);
      expect(readdirSync(dir).filter((f) => f.includes('.new-'))).toEqual([]);
      const done = running.flatMap((w) => w.done);
      expect(done).toHaveLength(writers * 60);
      const result = await checkReported(dir, done);
      expect(result.lost).toEqual([]);
      expect(result.corrupt).toEqual([]);
      expect(integrity(join(dir, DATABASE_FILE))).toBe('ok');
      const store = createStore({ dir });
      expect(store.count).toBe(new Set(done.map(([, id]) => id)).size); // a shared text is stored once
      store.close();
    });
  }
});

describe('store: two handles on one folder (as two processes)', () => {
  it('hold one byte budget together: LRU across both, never more than the budget plus the newest entry', () => {
    const dir = fresh('shared-budget');
    const one = createStore({ dir, storeBudgetBytes: 100 });
    const two = createStore({ dir, storeBudgetBytes: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const text = `text ${String(i).padStart(2, '0')} ${'x'.repeat(20)}`;
      const { id, size } = (i % 2 === 0 ? one : two).put(text, { type: 'default' });
      ids.push(id);
      expect(one.totalBytes).toBeLessThanOrEqual(100 + size);
      expect(two.get(id).found).toBe(true);
    }
    // The newest few fit; everything older went, whichever handle stored it.
    expect(one.count).toBe(3);
    expect(ids.slice(-3).every((id) => one.get(id).found)).toBe(true);
    expect(ids.slice(0, -3).some((id) => two.get(id).found)).toBe(false);
    one.close();
    two.close();
  });

  it('never serves bytes that do not match their id: dropped, reported unknown, with a warning', () => {
    const dir = fresh('tampered');
    const warnings: string[] = [];
    const store = createStore({ dir, warn: (m) => warnings.push(m) });
    const { id } = store.put('the real original\n', { type: 'default' });
    const db = new Database(join(dir, DATABASE_FILE));
    db.prepare('UPDATE originals SET body = ? WHERE id = ?').run(Buffer.from('a forged original\n'), id);
    db.close();
    expect(store.get(id)).toEqual({ found: false, reason: 'unknown' });
    expect(warnings).toEqual([`squeeze store: the bytes under ${id} do not match their id; dropped`]);
    expect(store.count).toBe(0);
    store.close();
  });

  it('both meet one damaged database: the first sets it aside and starts a new one, the second reopens that one instead of setting it aside too; every id retrieves', () => {
    const dir = fresh('two-heal');
    const seed = createStore({ dir });
    for (let i = 0; i < 30; i++) seed.put(buildLog(400, i), { type: 'log' });
    seed.close();
    garblePages(join(dir, DATABASE_FILE));
    const warnings: string[] = [];
    const one = createStore({ dir, warn: (m) => warnings.push(m) });
    const two = createStore({ dir, warn: (m) => warnings.push(m) });
    const first = one.put(buildLog(400, 100), { type: 'log' }).id;
    const second = two.put(buildLog(400, 101), { type: 'log' }).id;
    const third = one.put(buildLog(400, 102), { type: 'log' }).id;
    const reader = createStore({ dir });
    for (const [id, seedOf] of [
      [first, 100],
      [second, 101],
      [third, 102],
    ] as const) {
      const found = reader.get(id);
      expect(found.found && found.entry.text).toBe(buildLog(400, seedOf));
    }
    expect(warnings).toHaveLength(1);
    expect(readdirSync(dir).filter((name) => /^originals\.sqlite\.damaged-\d+$/.test(name))).toHaveLength(1);
    for (const store of [one, two, reader]) store.close();
  });

  it('two set-asides in one millisecond keep both damaged files under their own names', () => {
    const dir = fresh('same-ms');
    const warnings: string[] = [];
    for (let round = 0; round < 2; round++) {
      const seed = createStore({ dir });
      for (let i = 0; i < 30; i++) seed.put(buildLog(400, round * 100 + i), { type: 'log' });
      seed.close();
      garblePages(join(dir, DATABASE_FILE));
      const store = createStore({ dir, now: () => 1_700_000_000_000, warn: (m) => warnings.push(m) });
      const { id } = store.put(buildLog(400, 1000 + round), { type: 'log' });
      expect(store.get(id).found).toBe(true);
      store.close();
    }
    const aside = readdirSync(dir).filter((name) => /\.damaged-[\d-]+$/.test(name));
    expect(aside.sort()).toEqual([
      `${DATABASE_FILE}.damaged-1700000000000`,
      `${DATABASE_FILE}.damaged-1700000000000-2`,
    ]);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain(`kept it as ${join(dir, DATABASE_FILE)}.damaged-1700000000000-2`);
  });

  it('a connection whose file another process set aside writes into the new store, not into the file set aside', () => {
    const dir = fresh('set-aside-under');
    const store = createStore({ dir });
    store.put('before\n', { type: 'default' });
    const file = join(dir, DATABASE_FILE);
    // What another process's setAside does to a file it found damaged.
    for (const suffix of ['', '-wal', '-shm']) renameSync(file + suffix, `${file}.damaged-1${suffix}`);
    const { id } = store.put('after\n', { type: 'default' });
    const reader = createStore({ dir });
    const found = reader.get(id);
    expect(found.found && found.entry.text).toBe('after\n');
    for (const open of [store, reader]) open.close();
  });
});

/** Keeps page 1 (the header and the schema) and makes every later page noise: opening works, statements fail. */
function garblePages(file: string): void {
  const bytes = readFileSync(file);
  const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
  for (let i = pageSize; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
  for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
  writeFileSync(file, bytes, { mode: 0o600 });
}

describe('store: writers killed at random points', () => {
  it('SIGKILL x 12 (one of two concurrent writers, texts up to 2 MB): every reported id retrieves, nothing is corrupt', async () => {
    const dir = fresh('sigkill');
    const killed: Array<[string, string]> = [];
    const survived: Array<[string, string]> = [];
    for (let round = 0; round < 12; round++) {
      const killAfter = Math.floor(Math.random() * 4);
      const victim = startWriter(dir, 100 + round, 0, 2_000_000, (w: Writer) => {
        if (w.done.length >= killAfter && !w.child.killed)
          setTimeout(() => w.child.kill('SIGKILL'), Math.random() * 20);
      });
      const survivor = startWriter(dir, 200 + round, 5, 200_000);
      expect(await victim.exited).toBeNull();
      expect(await survivor.exited, survivor.stderr()).toBe(0);
      expect(survivor.done).toHaveLength(5);
      killed.push(...victim.done);
      survived.push(...survivor.done);
    }
    // Checked after all rounds: a later kill harmed no earlier entry either.
    for (const [done, maxBytes] of [
      [killed, 2_000_000],
      [survived, 200_000],
    ] as const) {
      const result = await checkReported(dir, done, maxBytes);
      expect(result.lost).toEqual([]);
      expect(result.corrupt).toEqual([]);
    }
    expect(integrity(join(dir, DATABASE_FILE))).toBe('ok');
  });
});

describe('store: unsafe folders are refused, through the CLI', () => {
  it('a folder writable by others (0777)', async () => {
    const dir = fresh('open');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o777);
    await expectNotStored(dir, /writable by group or others \(mode 777/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a folder that is a symbolic link, and a database file that is one', async () => {
    const target = fresh('target');
    mkdirSync(target, { mode: 0o700 });
    const link = fresh('link');
    symlinkSync(target, link);
    await expectNotStored(link, /is a symbolic link/);
    expect(readdirSync(target)).toEqual([]);

    const dir = fresh('db-link');
    mkdirSync(dir, { mode: 0o700 });
    const victim = fresh('victim.txt');
    writeFileSync(victim, 'not yours\n');
    symlinkSync(victim, join(dir, DATABASE_FILE));
    await expectNotStored(dir, /originals\.sqlite is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');
    const wal = fresh('wal-link');
    mkdirSync(wal, { mode: 0o700 });
    symlinkSync(victim, join(wal, `${DATABASE_FILE}-wal`));
    await expectNotStored(wal, /originals\.sqlite-wal is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');

    // A journal.jsonl that is a link is neither read nor renamed; the store itself works.
    const journal = fresh('journal-link');
    mkdirSync(journal, { mode: 0o700 });
    symlinkSync(victim, join(journal, 'journal.jsonl'));
    const stored = await compressJson(journal);
    expect(stored.code).toBe(0);
    expect(stored.stderr).toMatch(
      /^squeeze store: could not import .*journal\.jsonl \(store .*journal\.jsonl is a symbolic link;/m,
    );
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');
    expect(existsSync(join(journal, 'journal.jsonl.imported'))).toBe(false);
  });

  it.skipIf(!isRoot)('a folder owned by another user', async () => {
    const dir = fresh('foreign');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    await expectNotStored(dir, /is owned by uid 65534, not by you/);
  });

  it('a path the file system will not create (/proc) fails at once', async () => {
    await expectNotStored('/proc/squeeze-store', /cannot create store folder \/proc\/squeeze-store/);
  });
});

describe('store: read-only, full and damaged stores, through the CLI', () => {
  it.skipIf(!canMount)('a read-only file system: exit 6, nothing claimed', async () => {
    const dir = tmpfs('1m');
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    await expectNotStored(dir, /unable to open database file|read-only/);
  });

  it.skipIf(!canMount)(
    'a full disk: exit 6 for what does not fit; what was stored still retrieves, and the store goes on',
    async () => {
      const dir = tmpfs('1m');
      const small = await compressJson(dir, buildLog(400, 3));
      expect(small.code).toBe(0);
      expect(small.json.stored).toBe(true);
      await expectNotStored(dir, /full/, buildLog(30_000, 5));
      const back = await runCli(['retrieve', small.json.id!, '--store', dir]);
      expect(back.code).toBe(0);
      expect(back.stdout.toString('utf8')).toBe(buildLog(400, 3));
      const again = await compressJson(dir, buildLog(400, 4));
      expect(again.code).toBe(0);
      expect((await runCli(['retrieve', again.json.id!, '--store', dir])).stdout.toString('utf8')).toBe(
        buildLog(400, 4),
      );
      expect(integrity(join(dir, DATABASE_FILE))).toBe('ok');
    },
  );

  it('a damaged database file is set aside (kept) and a new store starts; never a crash', async () => {
    const dir = fresh('damaged');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, DATABASE_FILE), Buffer.alloc(8192, 0x5a), { mode: 0o600 });
    const result = await compressJson(dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/originals\.sqlite was damaged .*kept it as .*originals\.sqlite\.damaged-\d+/);
    const back = await runCli(['retrieve', result.json.id!, '--store', dir]);
    expect(back.stdout.toString('utf8')).toBe(LOG);
    expect(readdirSync(dir).filter((f) => f.includes('.damaged-'))).toHaveLength(1);
  });

  it('an empty database file (a truncated store) is set aside with a warning; one just made empty is filled in place', async () => {
    const truncated = fresh('empty-old');
    mkdirSync(truncated, { mode: 0o700 });
    const file = join(truncated, DATABASE_FILE);
    writeFileSync(file, '', { mode: 0o600 });
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(file, minuteAgo, minuteAgo);
    const result = await compressJson(truncated);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /originals\.sqlite was damaged \(it is empty: 0 bytes, what it held is lost\); kept it as .*originals\.sqlite\.damaged-\d+/,
    );
    expect((await runCli(['retrieve', result.json.id!, '--store', truncated])).stdout.toString('utf8')).toBe(LOG);
    const aside = readdirSync(truncated).filter((f) => f.includes('.damaged-'));
    expect(aside.map((f) => statSync(join(truncated, f)).size)).toEqual([0]);
    // An earlier version creates its store as an empty file that SQLite then fills: seen in that moment, it is no damage.
    const young = fresh('empty-young');
    mkdirSync(young, { mode: 0o700 });
    writeFileSync(join(young, DATABASE_FILE), '', { mode: 0o600 });
    const filled = await compressJson(young);
    expect(filled.code).toBe(0);
    expect(filled.stderr).not.toMatch(/damaged/);
    expect(readdirSync(young).filter((f) => f.includes('.damaged-'))).toEqual([]);
  });

  it('a database with an intact header and garbage pages is set aside at its first failing statement; the next compress stores an id that retrieves byte-exact', async () => {
    const dir = fresh('garbage-pages');
    mkdirSync(dir, { mode: 0o700 });
    for (let i = 0; i < 30; i++) expect((await compressJson(dir, buildLog(400, i))).code).toBe(0);
    garblePages(join(dir, DATABASE_FILE));
    const next = await compressJson(dir, buildLog(400, 99));
    expect(next.code).toBe(0);
    expect(next.json.stored).toBe(true);
    expect(next.stderr).toMatch(/originals\.sqlite was damaged .*kept it as .*originals\.sqlite\.damaged-\d+/);
    const back = await runCli(['retrieve', next.json.id!, '--store', dir]);
    expect(back.code).toBe(0);
    expect(back.stdout.toString('utf8')).toBe(buildLog(400, 99));
  });

  it('a database file readable by group or others is made 0600 with one warning, and keeps working', async () => {
    const dir = fresh('open-mode');
    mkdirSync(dir, { mode: 0o700 });
    const first = await compressJson(dir);
    expect(first.code).toBe(0);
    chmodSync(join(dir, DATABASE_FILE), 0o666);
    const back = await runCli(['retrieve', first.json.id!, '--store', dir]);
    expect(back.stdout.toString('utf8')).toBe(LOG);
    expect(back.stderr).toMatch(/originals\.sqlite was readable by group or others \(mode 666\); made it 0600/);
    expect(statSync(join(dir, DATABASE_FILE)).mode & 0o777).toBe(0o600);
  });

  it("an earlier version's journal is imported once and renamed, not deleted", async () => {
    const dir = fresh('journal');
    mkdirSync(dir, { mode: 0o700 });
    const kept = 'kept by an earlier squeeze\n';
    const gone = 'evicted later\n';
    const line = (text: string) =>
      `${JSON.stringify({ hash: originalId(text), type: 'file', size: Buffer.byteLength(text), ttlAt: Date.now() + 600_000, payload: Buffer.from(text).toString('base64') })}\n`;
    writeFileSync(
      join(dir, 'journal.jsonl'),
      line(kept) +
        line(gone) +
        `${JSON.stringify({ hash: originalId(gone), gone: 'budget', at: Date.now() })}\n{"hash":"torn`,
      { mode: 0o600 },
    );
    const back = await runCli(['retrieve', originalId(kept), '--store', dir]);
    expect(back.code).toBe(0);
    expect(back.stdout.toString('utf8')).toBe(kept);
    expect(back.stderr).toMatch(/imported 1 originals from .*journal\.jsonl/);
    expect((await runCli(['retrieve', originalId(gone), '--store', dir])).code).toBe(3);
    expect(existsSync(join(dir, 'journal.jsonl'))).toBe(false);
    expect(existsSync(join(dir, 'journal.jsonl.imported'))).toBe(true);
  });
});

describe('store faults through the real harness', () => {
  let h: Harness | undefined;
  afterEach(() => h?.close());

  /** Every CCR id in the model-facing results retrieves, through ccr_retrieve. */
  async function everyPrintedIdRetrieves(harness: Harness, texts: string[]) {
    for (const text of texts) {
      for (const [, id] of text.matchAll(/<<<CCR:([0-9a-f]{24})\|/g)) {
        const back = await harness.call('ccr_retrieve', { hash: id });
        expect(back.isError, id).toBe(false);
      }
    }
  }

  it('an unsafe store folder: the plugin loads, says why once, and every result passes through whole', async () => {
    h = await createHarness();
    const dir = join(h.dir, 'open-store');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o777);
    await h.ctx.plugin(squeezePlugin(), { logFile: '', store: dir });
    const text = buildLog(600);
    h.tool('bash', text);
    const result = await h.call('bash');
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe(text);
    expect(
      h.messages('warn').filter((m) => /writable by group or others.*results pass through uncompressed/.test(m)),
    ).toHaveLength(1);
  });

  it.skipIf(!canMount)(
    'a full disk: calls stay successful, what did not fit passes through, every printed id retrieves',
    async () => {
      h = await createHarness();
      const dir = tmpfs('1m');
      await h.ctx.plugin(squeezePlugin(), { logFile: '', store: dir });
      const texts: string[] = [];
      let text = '';
      h.tool('bash', () => [{ type: 'text', text }]);
      for (const lines of [400, 30_000, 500]) {
        text = buildLog(lines, lines);
        const result = await h.call('bash');
        expect(result.isError).toBe(false);
        texts.push(textOf(result));
        if (lines === 30_000) {
          // Too big for the disk: passed through (the spill policy may still cut it to its file, never silently).
          expect(textOf(result)).not.toContain('<<<CCR:');
        } else {
          expect(textOf(result)).toContain(`<<<CCR:${originalId(text)}|`);
        }
      }
      await everyPrintedIdRetrieves(h, texts);
      expect(h.messages('warn').some((m) => /could not store the original of bash .*full/.test(m))).toBe(true);
    },
  );
});
