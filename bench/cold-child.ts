// One fresh-process sample for bench/coldstart.ts: `node --import tsx
// bench/cold-child.ts <wasm|js> <bytes>` loads the engine's backend, then times
// its first and second analysis (begin + lineTable + groupLines) of the
// benchmark input, and prints the milliseconds as JSON. No engine code ran before it
// in this process, so the numbers include lazy compilation and tier-up.
import { performance } from 'node:perf_hooks';
import { createBackend, type BackendName } from '../src/engine/index.js';
import { mixedInput } from './inputs.js';

const name = process.argv[2] as BackendName;
const text = mixedInput(Number(process.argv[3]));

function analyse(): number {
  const t = performance.now();
  backend.begin(text);
  const lines = backend.lineTable();
  backend.groupLines(lines.count, lines.hashA, lines.hashB);
  return performance.now() - t;
}

const t0 = performance.now();
const backend = createBackend(name);
const load = performance.now() - t0;
const first = analyse();
const second = analyse();
console.log(JSON.stringify({ load, first, second }));
