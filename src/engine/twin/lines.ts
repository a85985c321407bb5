// TypeScript twin of assembly/lines.ts and assembly/hash.ts: same algorithm,
// same results, written for V8 (Math.imul lanes). A line ends at LF, CRLF or
// a lone CR.
import { tableSizeFor } from '../contract.js';
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
export function hashRange(
  text: string,
  from: number,
  to: number,
  out: Uint32Array,
  at: number,
  outB: Uint32Array,
): void {
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

/**
 * A scanner for line breaks: `next(i)` is the index of the next LF or CR at or
 * after `i` (or the length), for non-decreasing `i`. It keeps one indexOf
 * cursor per character, so a text without CR is not rescanned per line.
 */
export function breakScanner(text: string): (i: number) => number {
  const len = text.length;
  let lf = -1;
  let cr = -1;
  return (i) => {
    if (lf < i) {
      lf = text.indexOf('\n', i);
      if (lf === -1) lf = len;
    }
    if (cr < i) {
      cr = text.indexOf('\r', i);
      if (cr === -1) cr = len;
    }
    return Math.min(lf, cr);
  };
}

/** Index just past the break at `at` (< length): 2 for CRLF, else 1. */
export function pastBreak(text: string, at: number): number {
  return text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10 ? at + 2 : at + 1;
}

export function countLines(text: string): number {
  const len = text.length;
  const next = breakScanner(text);
  let n = 0;
  for (let i = 0; i < len; n++) {
    const e = next(i);
    i = e < len ? pastBreak(text, e) : len;
  }
  return n;
}

export function lineTable(text: string): LineTable {
  const count = countLines(text);
  const start = new Int32Array(count);
  const end = new Int32Array(count);
  const hashA = new Uint32Array(count);
  const hashB = new Uint32Array(count);
  const len = text.length;
  const next = breakScanner(text);
  let i = 0;
  for (let n = 0; n < count; n++) {
    const e = next(i);
    start[n] = i;
    end[n] = e;
    hashRange(text, i, e, hashA, n, hashB);
    i = e < len ? pastBreak(text, e) : len;
  }
  return { count, start, end, hashA, hashB };
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
