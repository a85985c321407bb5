// TypeScript twin of assembly/lines.ts and assembly/hash.ts: same algorithm,
// same results, written for V8 (indexOf for line ends, Math.imul lanes).
import type { LineGroups, LineTable } from '../types.js';

export const SEED_A = 0x9747b28c;
export const SEED_B = 0x811c9dc5;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

export function mixA(h: number, w: number): number {
  let k = Math.imul(w, 0xcc9e2d51);
  k = Math.imul(rotl(k, 15), 0x1b873593);
  h ^= k;
  return (Math.imul(rotl(h, 13), 5) + 0xe6546b64) | 0;
}

export function mixB(h: number, w: number): number {
  return Math.imul(h ^ w, 0x01000193);
}

export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Fingerprint lanes of text[from, to): [A, B]. */
export function hashRange(text: string, from: number, to: number, out: Uint32Array, at: number, outB: Uint32Array): void {
  const len = to - from;
  let a = (SEED_A ^ len) | 0;
  let b = (SEED_B ^ len) | 0;
  let i = from;
  for (const last = from + (len & ~1); i < last; i += 2) {
    const w = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    a = mixA(a, w);
    b = mixB(b, w);
  }
  if (i < to) {
    const w = text.charCodeAt(i);
    a = mixA(a, w);
    b = mixB(b, w);
  }
  out[at] = fmix(a);
  outB[at] = fmix(b);
}

export function countLines(text: string): number {
  const len = text.length;
  if (len === 0) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.charCodeAt(len - 1) === 10 ? n : n + 1;
}

export function lineTable(text: string): LineTable {
  const count = countLines(text);
  const start = new Int32Array(count);
  const end = new Int32Array(count);
  const hashA = new Uint32Array(count);
  const hashB = new Uint32Array(count);
  const len = text.length;
  let i = 0;
  for (let n = 0; n < count; n++) {
    let lf = text.indexOf('\n', i);
    if (lf === -1) lf = len;
    let e = lf;
    if (e > i && lf < len && text.charCodeAt(e - 1) === 13) e--;
    start[n] = i;
    end[n] = e;
    hashRange(text, i, e, hashA, n, hashB);
    i = lf + 1;
  }
  return { count, start, end, hashA, hashB };
}

/** Power of two >= 2 * count (at least 16): the grouping table's slot count. */
export function tableSizeFor(count: number): number {
  let size = 16;
  while (size < count * 2) size *= 2;
  return size;
}

export function groupLines(count: number, hashA: Uint32Array, hashB: Uint32Array): LineGroups {
  const tableSize = tableSizeFor(count);
  const mask = tableSize - 1;
  const table = new Int32Array(tableSize);
  const group = new Int32Array(count);
  const size = new Int32Array(count);
  let distinct = 0;
  for (let i = 0; i < count; i++) {
    const a = hashA[i]!;
    const b = hashB[i]!;
    let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    let first = -1;
    for (let entry = table[slot]!; entry !== 0; entry = table[slot]!) {
      const j = entry - 1;
      if (hashA[j] === a && hashB[j] === b) {
        first = j;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (first < 0) {
      table[slot] = i + 1;
      first = i;
      distinct++;
    }
    group[i] = first;
    size[first]!++;
  }
  for (let i = 0; i < count; i++) size[i] = size[group[i]!]!;
  return { group, size, distinct };
}
