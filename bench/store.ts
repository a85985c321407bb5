// Store benchmark against issue 9's targets, and the choice it rests on:
// SQLite (better-sqlite3) against npm's content-addressable cacache.
//   - open time at 0, ~100 MB and ~1 GB stored (target <= 5 ms);
//   - a 12-byte `squeeze compress` (fresh process, the built CLI) with ~1 GB
//     stored (target <= 150 ms wall, <= 100 MB RSS), and a compress that stores;
//   - 8 writer processes x 1,000 puts, 20% shared texts: lost and corrupt (target 0);
//   - SIGKILL loop: writers killed at random points (target 0 corrupt, every
//     completed id retrieves);
//   - the same two through Redis, when /usr/bin/redis-server is installed.
// Run: npx tsx bench/store.ts [--kills N] [--puts N] [--redis-only]   (after npm run build)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createStore, DATABASE_FILE, originalId } from '../src/store/index.js';
import { checkReported, integrity, startWriter, type Writer } from '../test/support/store-faults.js';
import { hasRedis, startRedis } from '../test/support/redis-server.js';
import { cacache } from './cacache.js';

const CLI = resolve(import.meta.dirname, '../dist/cli.js');
const CACACHE_WRITER = resolve(import.meta.dirname, 'store-cacache-writer.ts');
const BIG = 50 * 1024 * 1024;

interface Row {
  readonly measurement: string;
  readonly sqlite: string;
  readonly other: string;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const du = (dir: string) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);

/** A distinct text of `bytes` (log-like lines, so it is realistic for SQLite's pages and cacache's files). */
function bigText(i: number, bytes: number): string {
  const line = `2026-12-01 10:00:00 INFO big original ${i} request served in 12 ms ü€\n`;
  return `#${i}\n${line.repeat(Math.ceil(bytes / Buffer.byteLength(line)))}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median open time of the SQLite store in `dir` (open + one lookup of an unknown id, then close). */
function sqliteOpen(dir: string): number {
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    const store = createStore({ dir, storeBudgetBytes: 4 * 1024 ** 3 });
    store.get('0'.repeat(24));
    times.push(performance.now() - t);
    store.close();
  }
  return median(times);
}

/** Median time of a cacache lookup by key in `dir` (it has no open: the index is read per lookup). */
async function cacacheLookup(dir: string, id: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    await cacache.get(dir, id);
    times.push(performance.now() - t);
  }
  return median(times);
}

async function openAtSizes(sqliteDir: string, cacheDir: string): Promise<Row[]> {
  const rows: Row[] = [];
  let stored = 0;
  const fill = async (upTo: number) => {
    const store = createStore({ dir: sqliteDir, storeBudgetBytes: 4 * 1024 ** 3 });
    for (; stored < upTo; stored++) {
      const text = bigText(stored, BIG);
      store.put(text, { type: 'default' });
      await cacache.put(cacheDir, originalId(text), text);
    }
    store.close();
  };
  for (const count of [0, 2, 20]) {
    await fill(count);
    const probe = 'probe original\n';
    const store = createStore({ dir: sqliteDir, storeBudgetBytes: 4 * 1024 ** 3 });
    store.put(probe, { type: 'default' });
    store.close();
    await cacache.put(cacheDir, originalId(probe), probe);
    rows.push({
      measurement: `open (+ one lookup) with ${count} x 50 MB stored (disk: SQLite ${mb(du(sqliteDir))}, cacache ${mb(du(cacheDir))})`,
      sqlite: `**${ms(sqliteOpen(sqliteDir))}** (target <= 5 ms)`,
      other: `${ms(await cacacheLookup(cacheDir, originalId(probe)))} per lookup (no open; index read each time)`,
    });
  }
  const t = performance.now();
  const listed = Object.keys(await cacache.ls(cacheDir)).length;
  rows.push({
    measurement: 'what an LRU/TTL pass needs: every entry with its last use',
    sqlite: 'one indexed query (`ORDER BY lru LIMIT 1`) inside the put',
    other: `\`ls\` of the whole index: ${ms(performance.now() - t)} for ${listed} entries; eviction would be hand-written on top`,
  });
  return rows;
}

/** `/usr/bin/time` of the built CLI in a fresh process: wall seconds and max RSS. */
function timedCli(args: string[], stdin: string): { wallMs: number; rssMb: number; code: number | null } {
  return timedNode([CLI, ...args], stdin);
}

function timedNode(args: string[], stdin = ''): { wallMs: number; rssMb: number; code: number | null } {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, ...args], {
    input: stdin,
    encoding: 'utf8',
  });
  const [wall, rss] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wallMs: wall! * 1000, rssMb: rss! / 1024, code: run.status };
}

function cliAtOneGigabyte(sqliteDir: string): Row[] {
  const rows: Row[] = [];
  // What any command costs on this machine before the store is touched.
  const bare = Array.from({ length: 5 }, () => timedNode(['-e', '0']));
  const help = Array.from({ length: 5 }, () => timedCli(['--help'], ''));
  rows.push({
    measurement: 'baselines in the same conditions: `node -e 0`, and `squeeze --help` (no store)',
    sqlite: `${ms(median(bare.map((r) => r.wallMs)))} and ${ms(median(help.map((r) => r.wallMs)))} wall, ${median(help.map((r) => r.rssMb)).toFixed(0)} MB RSS`,
    other: '',
  });
  const runs = Array.from({ length: 5 }, () => timedCli(['compress', '--store', sqliteDir], 'hello world\n'));
  rows.push({
    measurement:
      '`squeeze compress` of 12 bytes, ~1 GB stored (fresh process, median of 5; /usr/bin/time; below minTokens, so the store is not opened)',
    sqlite: `**${ms(median(runs.map((r) => r.wallMs)))} wall, ${median(runs.map((r) => r.rssMb)).toFixed(0)} MB RSS** (targets <= 150 ms, <= 100 MB); exit ${runs[0]!.code}`,
    other: 'n/a (not built on it)',
  });
  const retrieve = Array.from({ length: 5 }, () =>
    timedCli(['retrieve', originalId('probe original\n'), '--store', sqliteDir], ''),
  );
  rows.push({
    measurement: '`squeeze retrieve` of a 15-byte original, ~1 GB stored',
    sqlite: `${ms(median(retrieve.map((r) => r.wallMs)))} wall, ${median(retrieve.map((r) => r.rssMb)).toFixed(0)} MB RSS; exit ${retrieve[0]!.code}`,
    other: '',
  });
  const log = Array.from(
    { length: 400 },
    (_, i) => `2026-12-01 10:00:${String(i % 60).padStart(2, '0')} INFO request ${i % 13} ok`,
  ).join('\n');
  const first = timedCli(['compress', '--store', sqliteDir], log);
  const second = timedCli(['compress', '--store', sqliteDir], `${log}\nagain`);
  rows.push({
    measurement:
      'a compress that stores (16 KB log) into the ~1 GB store: first (evicts down to the default 256 MiB budget), then the next',
    sqlite: `${ms(first.wallMs)} / ${ms(second.wallMs)} wall, ${first.rssMb.toFixed(0)} / ${second.rssMb.toFixed(0)} MB RSS`,
    other: '',
  });
  return rows;
}

async function writers(spec: string, puts: number): Promise<string> {
  const t = performance.now();
  const running = Array.from({ length: 8 }, (_, w) => startWriter(spec, w, puts));
  const codes = await Promise.all(running.map((w) => w.exited));
  const done = running.flatMap((w) => w.done);
  const check = await checkReported(spec, done);
  const failed = codes.filter((c) => c !== 0).length;
  return `${done.length} reported, **${check.lost.length} lost, ${check.corrupt.length} corrupt**, ${failed} writers failed; ${((performance.now() - t) / 1000) | 0} s`;
}

function cacacheWriter(dir: string, worker: number, count: number): Writer {
  // The same reporting as the store writer, through the cacache script.
  return startWriter(dir, worker, count, undefined, undefined, CACACHE_WRITER);
}

async function cacacheCheck(dir: string, done: Array<[string, string]>): Promise<number> {
  let lost = 0;
  for (const [, id] of done) {
    try {
      const { data } = await cacache.get(dir, id);
      if (originalId(data.toString('utf8')) !== id) lost++;
    } catch {
      lost++;
    }
  }
  return lost;
}

async function killLoop(spec: string, kills: number, dbPath?: string): Promise<string> {
  const done: Array<[string, string]> = [];
  let killed = 0;
  for (let round = 0; round < kills; round++) {
    const killAfter = Math.floor(Math.random() * 4);
    const victim = startWriter(spec, 1000 + round, 0, 2_000_000, (w: Writer) => {
      if (w.done.length >= killAfter && !w.child.killed) setTimeout(() => w.child.kill('SIGKILL'), Math.random() * 20);
    });
    if ((await victim.exited) === null) killed++;
    done.push(...victim.done);
  }
  const check = await checkReported(spec, done, 2_000_000);
  const sqlite = dbPath === undefined ? '' : `; integrity_check: ${integrity(dbPath)}`;
  const lost = check.lost.length === 0 ? '' : ` (${check.lost.join(', ')})`;
  return `${killed} kills, ${done.length} completed puts: **${check.lost.length} lost, ${check.corrupt.length} corrupt**${lost}${sqlite}`;
}

/** The Redis rows: each phase on its own fresh redis-server, so one phase's bytes never count against the next's budget. */
export async function redisBench(puts: number, kills: number): Promise<string> {
  const rows: string[] = [];
  if (!hasRedis) {
    rows.push('| (skipped) | /usr/bin/redis-server is not installed |');
  } else {
    for (const [name, run] of [
      [`8 processes x ${puts} puts, 20% shared texts`, (url: string) => writers(url, puts)],
      [
        `SIGKILL loop: ${kills} writers (texts up to 2 MB) killed at random points`,
        (url: string) => killLoop(url, kills),
      ],
    ] as const) {
      const server = await startRedis();
      try {
        rows.push(`| ${name} | ${await run(server.url)} |`);
      } finally {
        await server.stop();
      }
    }
  }
  return ['| Redis store (redis-server on loopback, no persistence) | result |', '|---|---|', ...rows, ''].join('\n');
}

export async function storeBench(options: { kills?: number; puts?: number } = {}): Promise<string> {
  const kills = options.kills ?? 100;
  const puts = options.puts ?? 1000;
  const root = mkdtempSync(join(tmpdir(), 'squeeze-bench-store-'));
  try {
    const sqliteDir = join(root, 'sqlite');
    const cacheDir = join(root, 'cacache');
    const rows = [...(await openAtSizes(sqliteDir, cacheDir)), ...cliAtOneGigabyte(sqliteDir)];

    const concurrentDir = join(root, 'concurrent');
    const concurrentCache = join(root, 'concurrent-cacache');
    const sqliteWriters = await writers(concurrentDir, puts);
    const cacheRunning = Array.from({ length: 8 }, (_, w) => cacacheWriter(concurrentCache, w, puts));
    await Promise.all(cacheRunning.map((w) => w.exited));
    const cacheDone = cacheRunning.flatMap((w) => w.done);
    rows.push({
      measurement: `8 processes x ${puts} puts, 20% shared texts (up to 64 KB)`,
      sqlite: `${sqliteWriters}; integrity_check: ${integrity(join(concurrentDir, DATABASE_FILE))}`,
      other: `${cacheDone.length} reported, ${await cacacheCheck(concurrentCache, cacheDone)} lost or corrupt (no budget, no LRU, no TTL)`,
    });
    const killDir = join(root, 'kills');
    rows.push({
      measurement: `SIGKILL loop: ${kills} writers (texts up to 2 MB) killed at random points`,
      sqlite: await killLoop(killDir, kills, join(killDir, DATABASE_FILE)),
      other: '',
    });

    const redisRows = await redisBench(puts, kills);
    return [
      '## Store: SQLite (chosen) against cacache, and Redis',
      '',
      `Node ${process.version}, one SQLite file in WAL mode (better-sqlite3), 2 shared cores. Open times are medians of 15;`,
      'writer processes start through tsx.',
      '',
      '| measurement | SQLite store | cacache 19 |',
      '|---|---|---|',
      ...rows.map((r) => `| ${r.measurement} | ${r.sqlite} | ${r.other} |`),
      '',
      redisRows,
    ].join('\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const flag = (name: string) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : Number(process.argv[at + 1]);
  };
  const [kills, puts] = [flag('--kills'), flag('--puts')];
  process.stdout.write(
    process.argv.includes('--redis-only')
      ? `${await redisBench(puts ?? 1000, kills ?? 100)}\n`
      : `${await storeBench({ ...(kills === undefined ? {} : { kills }), ...(puts === undefined ? {} : { puts }) })}\n`,
  );
}
