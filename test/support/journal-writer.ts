// Child process for test/system/journal.test.ts: stores texts in a journaled
// store, reporting each completed store on stdout, until it is killed. With a
// count as second argument it stops after that many stores, writes the first
// half of the next record's line (a write cut short, as the kernel may do with
// a large one) and waits to be killed in the middle of that append.
import { appendFileSync } from 'node:fs';
import { createStore, originalId } from '../../src/store/index.js';
import { storeLine } from '../../src/store/journal.js';

/** The i-th text: varied sizes (up to ~2 MB) so a kill often lands mid-write. */
export function writerText(i: number): string {
  const size = ((i * 7919) % 2_000_000) + 1;
  return `record ${i} ü€😀\n${'abcdefghij\n'.repeat(Math.ceil(size / 11))}end ${i}\n`;
}

const [path, stopAfter] = process.argv.slice(2);
if (path) {
  const store = createStore({ journalPath: path, warn: (m) => process.stderr.write(`${m}\n`) });
  for (let i = 0; stopAfter === undefined || i < Number(stopAfter); i++) {
    const { id } = store.put(writerText(i), { type: 'default' });
    process.stdout.write(`${i} ${id}\n`);
  }
  const next = writerText(Number(stopAfter));
  const line = storeLine(originalId(next), 'default', Buffer.from(next), Date.now() + 3_600_000);
  appendFileSync(path, line.slice(0, line.length >> 1));
  process.stdout.write('torn\n');
  setInterval(() => {}, 1000);
}
