// Where the WebAssembly line table's time goes: the steps of
// WasmBackend.begin + lineTable timed one by one on their own instance.
import { Arena, instantiate } from '../src/engine/wasm/runtime.js';
import { timeRivals, type Plan } from './measure.js';

export interface Step {
  readonly step: string;
  readonly ms: number;
}

export function measureLineTableSteps(text: string, plan: Plan): Step[] {
  const exports = instantiate();
  const arena = new Arena(exports);
  const textPtr = arena.writeText(text);
  const count = exports.count_lines(textPtr, text.length);
  const out = [0, 1, 2, 3].map(() => arena.alloc(count * 4));
  const steps: [string, () => unknown][] = [
    // Releasing to textPtr makes the bump arena hand out the same region again.
    [
      'copy the text in (Buffer.write utf16le)',
      () => {
        arena.release(textPtr);
        return arena.writeText(text);
      },
    ],
    ['count_lines (SIMD scan for LF)', () => exports.count_lines(textPtr, text.length)],
    ['lines (spans + fingerprints)', () => exports.lines(textPtr, text.length, out[0]!, out[1]!, out[2]!, out[3]!)],
    ['copy four arrays out (typed-array slice)', () => out.map((ptr) => arena.readI32(ptr, count))],
  ];
  const { ms } = timeRivals(
    steps.map(([, run]) => run),
    plan,
  );
  return steps.map(([step], i) => ({ step, ms: ms[i]! }));
}
