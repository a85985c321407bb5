// bench/store.ts's cacache writer: the same texts as test/support/store-writer.ts,
// put into a cacache folder under their squeeze id, one `KEY ID` line per put.
//   store-cacache-writer.ts DIR WORKER COUNT
import { cacache } from './cacache.js';
import { originalId } from '../src/store/index.js';
import { keyFor, textFor } from '../test/support/store-writer.js';

const [dir, worker, count] = process.argv.slice(2);
for (let i = 0; i < Number(count); i++) {
  const key = keyFor(Number(worker), i);
  const text = textFor(key);
  const id = originalId(text);
  await cacache.put(dir!, id, text);
  process.stdout.write(`${key} ${id}\n`);
}
