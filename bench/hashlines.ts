// "Hash every line": squeeze's line table (every line's span and 64-bit
// fingerprint, one call) against the obvious alternative, calling xxhash-wasm's
// h64 once per line from JS. Both sides find the lines themselves.
import xxhash from 'xxhash-wasm';
import type { Backend } from '../src/engine/index.js';
import { timeRivals, type Plan } from './measure.js';

export interface HashLinesRow {
  readonly label: string;
  readonly msPerMB: number;
}

export async function measureHashLines(
  text: string,
  megabytes: number,
  wasm: Backend,
  twin: Backend,
  plan: Plan,
): Promise<HashLinesRow[]> {
  const { h64 } = await xxhash();
  const perLine = (): bigint => {
    let last = 0n;
    for (let i = 0; i < text.length; ) {
      let lf = text.indexOf('\n', i);
      if (lf === -1) lf = text.length;
      last ^= h64(text.slice(i, lf));
      i = lf + 1;
    }
    return last;
  };
  const rivals: [string, () => unknown][] = [
    [
      'squeeze WebAssembly: begin + lineTable (spans + 2x32-bit fingerprint per line)',
      () => {
        wasm.begin(text);
        return wasm.lineTable();
      },
    ],
    [
      'squeeze TS twin: lineTable (same output)',
      () => {
        twin.begin(text);
        return twin.lineTable();
      },
    ],
    ['xxhash-wasm h64 once per line from JS (indexOf + slice + h64)', perLine],
    ['xxhash-wasm h64 of the whole text, one call (no lines; reference)', () => h64(text)],
  ];
  const { ms } = timeRivals(
    rivals.map(([, run]) => run),
    plan,
  );
  return rivals.map(([label], i) => ({ label, msPerMB: ms[i]! / megabytes }));
}
