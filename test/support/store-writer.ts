// A child process that stores texts and reports each completed put on stdout
// as `KEY ID`, for the fault tests and bench/store-faults.ts: many of these
// write one store at once, or are SIGKILLed at random points. With a store
// spec that is a folder it runs the SQLite store, with redis://… the Redis one.
//   store-writer.ts STORE WORKER COUNT [MAX_BYTES]   (COUNT 0: until killed)
import { pathToFileURL } from 'node:url';
import { openStoreSpec } from '../../src/store/index.js';

/** One in five texts is shared by all writers (the same 50 texts), the rest are this writer's own. */
export function keyFor(worker: number, i: number): string {
  return (i * 7 + worker) % 5 === 0 ? `s:${i % 50}` : `u:${worker}:${i}`;
}

/** The text of a key: deterministic, so the checker regenerates it; sizes from 1 byte to about maxBytes. */
export function textFor(key: string, maxBytes = 65_536): string {
  let seed = 0;
  for (const c of key) seed = (seed * 31 + c.charCodeAt(0)) >>> 0;
  const size = (seed % maxBytes) + 1;
  const line = `${key} ü€😀 ${seed}\n`;
  return `${key}\n${line.repeat(Math.ceil(size / Buffer.byteLength(line)))}end ${key}\n`;
}

const [spec, worker, count, maxBytes] = process.argv.slice(2);
// Only as the entry point: bench/store-cacache-writer.ts imports the texts from here.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && spec !== undefined) {
  // A budget nothing here reaches: an id that does not retrieve is then a lost put, never an eviction.
  const store = openStoreSpec(spec, { storeBudgetBytes: 16 * 1024 ** 3, warn: (m) => process.stderr.write(`${m}\n`) });
  const max = maxBytes === undefined ? undefined : Number(maxBytes);
  for (let i = 0; Number(count) === 0 || i < Number(count); i++) {
    const key = keyFor(Number(worker), i);
    const { id } = await store.put(textFor(key, max), { type: 'default' });
    process.stdout.write(`${key} ${id}\n`);
  }
  await store.close();
}
