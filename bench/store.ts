// Store benchmark: 10,000 journaled stores, a reload of that journal (target
// under 2 s), and the byte budget holding (never more than budget + the newest
// entry). Texts are slices of the shared corpus (real tool outputs), so the
// character mix and the base64/UTF-8 costs are realistic.
// Run: npx tsx bench/store.ts   (or import { storeBench } and print its markdown)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createStore, originalId } from '../src/store/index.js';
import { corpusFiles } from '../test/support/corpus.js';

const RECORDS = 10_000;
const BOUNDED_BUDGET = 16 * 1024 * 1024;

/** RECORDS distinct texts of 256 B .. 64 KiB (log-uniform), cut from the corpus. */
function texts(): string[] {
  const corpus = corpusFiles().map((f) => f.text).join('\n');
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: RECORDS }, (_, i) => {
    const size = Math.round(256 * 256 ** random());
    const from = Math.floor(random() * (corpus.length - size));
    // Round-tripped through UTF-8 so each is a flat string, as a tool's decoded output is.
    return Buffer.from(`#${i}\n${corpus.slice(from, from + size)}`, 'utf8').toString('utf8');
  });
}

/** process.memoryUsage().arrayBuffers (where the held texts live) after a full GC, when GC is exposed. */
async function offHeapAfterGc(): Promise<number | null> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  // Backing stores are freed after the collection that finds them dead: collect, yield, collect.
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return process.memoryUsage().arrayBuffers;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

interface Took {
  readonly wallMs: number;
  /** User + system CPU of this process: what the work costs when other processes share the cores. */
  readonly cpuMs: number;
}

function time<T>(run: () => T): [T, Took] {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = run();
  const used = process.cpuUsage(cpu);
  return [value, { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }];
}

const took = (t: Took) => `${t.wallMs.toFixed(0)} ms wall, ${t.cpuMs.toFixed(0)} ms CPU`;

interface Row {
  readonly measurement: string;
  readonly result: string;
}

function journaled(inputs: string[], dir: string): Row[] {
  const memoryOnly = createStore();
  const [, memoryMs] = time(() => inputs.forEach((t) => memoryOnly.put(t, { type: 'default' })));
  const journalPath = join(dir, 'journal.jsonl');
  const writer = createStore({ journalPath });
  const [, writeMs] = time(() => inputs.forEach((t) => writer.put(t, { type: 'default' })));
  const journalBytes = statSync(journalPath).size;
  const [reader, reloadMs] = time(() => createStore({ journalPath }));
  const identical = inputs.every((t) => {
    const hit = reader.get(originalId(t));
    return hit.found && hit.entry.text === t;
  });
  return [
    { measurement: `${inputs.length} stores, memory only`, result: took(memoryMs) },
    { measurement: `${inputs.length} stores, journaled (one append each)`, result: `${took(writeMs)}, journal ${mb(journalBytes)} MiB` },
    {
      measurement: 'reload of that journal (parse, base64; SHA-256 checked on first access)',
      result: `**${took(reloadMs)}** (target < 2000 ms), ${reader.count} entries, all ${identical ? 'identical' : 'NOT identical'} on get`,
    },
  ];
}

async function bounded(inputs: string[], dir: string): Promise<Row[]> {
  const before = await offHeapAfterGc();
  const journalPath = join(dir, 'bounded.jsonl');
  const store = createStore({ journalPath, storeBudgetBytes: BOUNDED_BUDGET });
  let peak = 0;
  let violations = 0;
  for (const t of inputs) {
    const { size } = store.put(t, { type: 'default' });
    peak = Math.max(peak, store.totalBytes);
    if (store.totalBytes > BOUNDED_BUDGET + size) violations++;
  }
  const after = await offHeapAfterGc();
  const [reloaded, reloadMs] = time(() => createStore({ journalPath, storeBudgetBytes: BOUNDED_BUDGET }));
  const grown = before === null || after === null ? 'n/a (run with node --expose-gc)' : `${mb(after - before)} MiB`;
  return [
    {
      measurement: `same stores under a ${mb(BOUNDED_BUDGET)} MiB budget`,
      result: `peak held ${peak.toLocaleString('en-US')} B of ${BOUNDED_BUDGET.toLocaleString('en-US')}; over budget + newest entry: ${violations} times; ${store.count} entries at the end`,
    },
    { measurement: 'growth of Buffer memory (process.memoryUsage().arrayBuffers) after GC, store alive', result: grown },
    {
      measurement: 'reload of the bounded journal (evictions recorded)',
      result: `${took(reloadMs)}, ${reloaded.count} entries, ${mb(reloaded.totalBytes)} MiB held, journal ${mb(statSync(journalPath).size)} MiB`,
    },
  ];
}

export async function storeBench(): Promise<string> {
  const inputs = texts().filter((t) => t.isWellFormed());
  const inputBytes = inputs.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-bench-store-'));
  try {
    const rows = [...journaled(inputs, dir), ...(await bounded(inputs, dir))];
    return [
      '## Store (LRU + TTL + JSONL journal)',
      '',
      `${inputs.length.toLocaleString('en-US')} distinct texts of 256 B to 64 KiB cut from the corpus, ${mb(inputBytes)} MiB of UTF-8 in all.`,
      'CPU time is reported beside wall time because the cores are shared.',
      '',
      '| measurement | result |',
      '|---|---|',
      ...rows.map((r) => `| ${r.measurement} | ${r.result} |`),
      '',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${await storeBench()}\n`);
}
