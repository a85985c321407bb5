// TypeScript twin of assembly/repeats.ts: repetition of multi-line blocks,
// found by a polynomial rolling hash over per-line fingerprints (any lanes:
// exact or template). A window is `size` consecutive lines; its rolling value
// is sum(hash[i + t] * P^(size - 1 - t)) mod 2^32, one multiplier per lane.
import { checkBlockSize, checkLanes, checkWindows, maxBlocks, repeatsTableSize } from '../contract.js';
import type { BlockSpans, Fingerprints, SeenWindows } from '../types.js';
import { fmix } from './lines.js';

const ROLL_A = 0x9e3779b1;
const ROLL_B = 0x85ebca77;

function power(base: number, exponent: number): number {
  let result = 1;
  for (let i = 0; i < exponent; i++) result = Math.imul(result, base);
  return result;
}

/** Rolling value of lane `hash` over lines [from, from + size). */
function rollFrom(hash: Uint32Array, from: number, size: number, multiplier: number): number {
  let r = 0;
  for (let t = 0; t < size; t++) r = (Math.imul(r, multiplier) + hash[from + t]!) | 0;
  return r;
}

export function windowHashes(count: number, hashA: Uint32Array, hashB: Uint32Array, size: number): Fingerprints {
  checkBlockSize(size);
  checkLanes(count, hashA, hashB);
  const windows = count >= size ? count - size + 1 : 0;
  const outA = new Uint32Array(windows);
  const outB = new Uint32Array(windows);
  if (windows === 0) return { hashA: outA, hashB: outB };
  const dropA = power(ROLL_A, size);
  const dropB = power(ROLL_B, size);
  let a = rollFrom(hashA, 0, size, ROLL_A);
  let b = rollFrom(hashB, 0, size, ROLL_B);
  for (let i = 0; ; i++) {
    outA[i] = fmix(a);
    outB[i] = fmix(b);
    if (i + 1 === windows) break;
    a = (Math.imul(a, ROLL_A) + hashA[i + size]! - Math.imul(hashA[i]!, dropA)) | 0;
    b = (Math.imul(b, ROLL_B) + hashB[i + size]! - Math.imul(hashB[i]!, dropB)) | 0;
  }
  return { hashA: outA, hashB: outB };
}

function sameLines(hashA: Uint32Array, hashB: Uint32Array, i: number, j: number, size: number): boolean {
  for (let t = 0; t < size; t++) {
    if (hashA[i + t] !== hashA[j + t] || hashB[i + t] !== hashB[j + t]) return false;
  }
  return true;
}

/** Start of the first block after line j (blocks sorted, none covers j), or `none`. */
function nextBlockStart(start: Int32Array, blocks: number, j: number, none: number): number {
  let lo = 0;
  let hi = blocks;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (start[mid]! > j) hi = mid;
    else lo = mid + 1;
  }
  return lo < blocks ? start[lo]! : none;
}

/**
 * Scans windows left to right. A window equal to a remembered earlier window
 * at j starts a block, extended while lines keep matching, up to the next
 * block after j and up to i (so the earlier copy is never covered itself). A
 * remembered window whose lines a block has since covered is replaced by the
 * current one; a window too close to its earlier copy waits for a later i.
 */
export function repeatedBlocks(count: number, hashA: Uint32Array, hashB: Uint32Array, minLines: number): BlockSpans {
  checkBlockSize(minLines);
  checkLanes(count, hashA, hashB);
  const bound = maxBlocks(count, minLines);
  const start = new Int32Array(bound);
  const lines = new Int32Array(bound);
  const source = new Int32Array(bound);
  const windows = count >= minLines ? count - minLines + 1 : 0;
  const tableSize = repeatsTableSize(windows);
  const mask = tableSize - 1;
  const keys = new Uint32Array(tableSize);
  const entries = new Int32Array(tableSize);
  const drop = power(ROLL_A, minLines);
  let blocks = 0;
  let roll = 0;
  let fresh = true;
  let i = 0;
  while (i < windows) {
    if (fresh) roll = rollFrom(hashA, i, minLines, ROLL_A);
    fresh = false;
    const key = fmix(roll);
    let slot = key & mask;
    let j = -1;
    for (let entry = entries[slot]!; entry !== 0; entry = entries[slot]!) {
      if (keys[slot] === key && sameLines(hashA, hashB, entry - 1, i, minLines)) {
        j = entry - 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (j < 0) {
      keys[slot] = key;
      entries[slot] = i + 1;
    } else {
      const covered = nextBlockStart(start, blocks, j, count);
      if (covered - j < minLines) {
        entries[slot] = i + 1;
      } else {
        const cap = Math.min(covered, i) - j;
        if (cap >= minLines) {
          let len = minLines;
          while (len < cap && i + len < count && hashA[i + len] === hashA[j + len] && hashB[i + len] === hashB[j + len])
            len++;
          start[blocks] = i;
          lines[blocks] = len;
          source[blocks] = j;
          blocks++;
          i += len;
          fresh = true;
          continue;
        }
      }
    }
    if (i + 1 < windows) roll = (Math.imul(roll, ROLL_A) + hashA[i + minLines]! - Math.imul(hashA[i]!, drop)) | 0;
    i++;
  }
  return {
    count: blocks,
    start: start.slice(0, blocks),
    lines: lines.slice(0, blocks),
    source: source.slice(0, blocks),
  };
}

/**
 * Indexes `seen` (first entry wins for equal fingerprints), then scans the
 * text's windows: a seen window starts a block, extended while the next
 * window equals the next seen entry of the same owner; the scan resumes at
 * the first window after the block.
 */
export function seenBlocks(windows: Fingerprints, size: number, seen: SeenWindows): BlockSpans {
  checkWindows(windows, size, seen);
  const winA = windows.hashA;
  const winB = windows.hashB;
  const winCount = winA.length;
  const seenA = seen.hashA;
  const seenB = seen.hashB;
  const owner = seen.owner;
  const seenCount = seenA.length;
  const bound = maxBlocks(winCount > 0 ? winCount + size - 1 : 0, size);
  const start = new Int32Array(bound);
  const lines = new Int32Array(bound);
  const source = new Int32Array(bound);
  const tableSize = repeatsTableSize(seenCount);
  const mask = tableSize - 1;
  const table = new Int32Array(tableSize);
  for (let e = 0; e < seenCount; e++) {
    const a = seenA[e]!;
    const b = seenB[e]!;
    let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    let present = false;
    for (let entry = table[slot]!; entry !== 0; entry = table[slot]!) {
      if (seenA[entry - 1] === a && seenB[entry - 1] === b) {
        present = true;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (!present) table[slot] = e + 1;
  }
  let blocks = 0;
  let i = 0;
  while (i < winCount) {
    const a = winA[i]!;
    const b = winB[i]!;
    let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
    let e = -1;
    for (let entry = table[slot]!; entry !== 0; entry = table[slot]!) {
      if (seenA[entry - 1] === a && seenB[entry - 1] === b) {
        e = entry - 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (e < 0) {
      i++;
      continue;
    }
    let t = 0;
    while (
      i + t + 1 < winCount &&
      e + t + 1 < seenCount &&
      owner[e + t + 1] === owner[e] &&
      seenA[e + t + 1] === winA[i + t + 1] &&
      seenB[e + t + 1] === winB[i + t + 1]
    )
      t++;
    start[blocks] = i;
    lines[blocks] = t + size;
    source[blocks] = e;
    blocks++;
    i += t + size;
  }
  return {
    count: blocks,
    start: start.slice(0, blocks),
    lines: lines.slice(0, blocks),
    source: source.slice(0, blocks),
  };
}
