// Repetition of multi-line blocks, found by a polynomial rolling hash over
// per-line fingerprints (exact or template lanes). A window is `size`
// consecutive lines; its rolling value is sum(hash[i + t] * P^(size - 1 - t))
// mod 2^32, one multiplier per lane. Twin: src/engine/twin/repeats.ts.
import { fmix } from './hash';

const ROLL_A: u32 = 0x9e3779b1;
const ROLL_B: u32 = 0x85ebca77;

// Both kernels look fingerprints up in a bucketed open-addressing table: a
// bucket is 32 bytes, four u32 keys then their four entries (index + 1, 0 for
// empty), filled in order, so one SIMD compare checks four keys and a probe
// touches one cache line. `tableSize` counts slots (8 bytes each).

/** Address of bucket number `bucket`. */
// @ts-ignore: decorator
@inline function bucketAddress(table: usize, bucket: i32): usize {
  return table + (<usize>bucket << 5);
}

/** Lanes of the bucket at `at` whose key is `key` and whose slot is taken. */
// @ts-ignore: decorator
@inline function keyHits(at: usize, key: u32): i32 {
  const taken = i32x4.ne(v128.load(at, 16), i32x4.splat(0));
  return i32x4.bitmask(v128.and(i32x4.eq(v128.load(at), i32x4.splat(key)), taken));
}

/** Lanes of the bucket at `at` that are empty. */
// @ts-ignore: decorator
@inline function emptyLanes(at: usize): i32 {
  return i32x4.bitmask(i32x4.eq(v128.load(at, 16), i32x4.splat(0)));
}

// Set by the lookups: the slot (key address) that matched, or the empty slot
// where the key would go.
let slotAt: usize = 0;

function power(base: u32, exponent: i32): u32 {
  let result: u32 = 1;
  for (let i = 0; i < exponent; i++) result *= base;
  return result;
}

/** Rolling value of the lane at `hash` over lines [from, from + size). */
function rollFrom(hash: usize, from: i32, size: i32, multiplier: u32): u32 {
  let r: u32 = 0;
  for (let t = 0; t < size; t++) r = r * multiplier + load<u32>(hash + (<usize>(from + t) << 2));
  return r;
}

/**
 * Fingerprint lanes of every window of `size` lines into outA/outB (each
 * count - size + 1 u32). Returns the number of windows (0 when count < size).
 */
export function window_hashes(count: i32, hashA: usize, hashB: usize, size: i32, outA: usize, outB: usize): i32 {
  const windows = count >= size ? count - size + 1 : 0;
  if (windows == 0) return 0;
  const dropA = power(ROLL_A, size);
  const dropB = power(ROLL_B, size);
  let a = rollFrom(hashA, 0, size, ROLL_A);
  let b = rollFrom(hashB, 0, size, ROLL_B);
  for (let i = 0; ; i++) {
    const at = <usize>i << 2;
    store<u32>(outA + at, fmix(a));
    store<u32>(outB + at, fmix(b));
    if (i + 1 == windows) break;
    const next = <usize>(i + size) << 2;
    a = a * ROLL_A + load<u32>(hashA + next) - load<u32>(hashA + at) * dropA;
    b = b * ROLL_B + load<u32>(hashB + next) - load<u32>(hashB + at) * dropB;
  }
  return windows;
}

/** Lanes of lines [i, i + 4) equal to those of [j, j + 4), as a 4-bit mask. */
// @ts-ignore: decorator
@inline function equalFour(hashA: usize, hashB: usize, i: i32, j: i32): i32 {
  const ai = <usize>i << 2;
  const aj = <usize>j << 2;
  return i32x4.bitmask(v128.and(
    i32x4.eq(v128.load(hashA + ai), v128.load(hashA + aj)),
    i32x4.eq(v128.load(hashB + ai), v128.load(hashB + aj)),
  ));
}

/** Number of leading lines, up to `limit`, where lines from i equal lines from j (four per step). */
function matchingLines(hashA: usize, hashB: usize, i: i32, j: i32, limit: i32): i32 {
  let t = 0;
  while (t + 4 <= limit) {
    const equal = equalFour(hashA, hashB, i + t, j + t);
    if (equal != 0xf) return t + ctz<i32>(~equal);
    t += 4;
  }
  while (t < limit) {
    const ai = <usize>(i + t) << 2;
    const aj = <usize>(j + t) << 2;
    if (load<u32>(hashA + ai) != load<u32>(hashA + aj) || load<u32>(hashB + ai) != load<u32>(hashB + aj)) break;
    t++;
  }
  return t;
}

// @ts-ignore: decorator
@inline function sameLines(hashA: usize, hashB: usize, i: i32, j: i32, size: i32): bool {
  return matchingLines(hashA, hashB, i, j, size) == size;
}

/** Start of the first block after line j (blocks sorted, none covers j), or `none`. */
function nextBlockStart(start: usize, blocks: i32, j: i32, none: i32): i32 {
  let lo = 0;
  let hi = blocks;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<i32>(start + (<usize>mid << 2)) > j) hi = mid;
    else lo = mid + 1;
  }
  return lo < blocks ? load<i32>(start + (<usize>lo << 2)) : none;
}

/** Earliest remembered window with key `key` and the lines of window i, or -1 (slotAt: its slot or the free one). */
function findWindow(table: usize, bucketMask: i32, hashA: usize, hashB: usize, key: u32, i: i32, size: i32): i32 {
  let bucket = <i32>key & bucketMask;
  while (true) {
    const at = bucketAddress(table, bucket);
    let hits = keyHits(at, key);
    while (hits != 0) {
      const lane = <usize>ctz<i32>(hits) << 2;
      const j = load<i32>(at + lane, 16) - 1;
      if (sameLines(hashA, hashB, j, i, size)) {
        slotAt = at + lane;
        return j;
      }
      hits &= hits - 1;
    }
    const empty = emptyLanes(at);
    if (empty != 0) {
      slotAt = at + (<usize>ctz<i32>(empty) << 2);
      return -1;
    }
    bucket = (bucket + 1) & bucketMask;
  }
}

/** Entry of `seen` with fingerprint (a, b), or -1 (slotAt: the free slot). */
function findSeen(table: usize, bucketMask: i32, seenB: usize, a: u32, b: u32): i32 {
  let bucket = <i32>(a ^ (b * 0x9e3779b1)) & bucketMask;
  while (true) {
    const at = bucketAddress(table, bucket);
    let hits = keyHits(at, a);
    while (hits != 0) {
      const lane = <usize>ctz<i32>(hits) << 2;
      const e = load<i32>(at + lane, 16) - 1;
      if (load<u32>(seenB + (<usize>e << 2)) == b) return e;
      hits &= hits - 1;
    }
    const empty = emptyLanes(at);
    if (empty != 0) {
      slotAt = at + (<usize>ctz<i32>(empty) << 2);
      return -1;
    }
    bucket = (bucket + 1) & bucketMask;
  }
}

/**
 * Blocks of >= minLines lines equal (by both lanes) to an earlier copy in the
 * same text: outStart/outLines/outSource (each floor(count / minLines) i32)
 * get the block's first line, its length and the earlier copy's first line;
 * no block covers an earlier copy. `table` is scratch of `tableSize` slots of
 * 8 bytes (a power of two >= 16 and >= 2 * windows), zeroed here. Returns the
 * block count.
 */
export function repeated_blocks(
  count: i32, hashA: usize, hashB: usize, minLines: i32,
  outStart: usize, outLines: usize, outSource: usize, table: usize, tableSize: i32,
): i32 {
  const windows = count >= minLines ? count - minLines + 1 : 0;
  if (windows == 0) return 0;
  memory.fill(table, 0, <usize>tableSize << 3);
  const bucketMask = (tableSize >>> 2) - 1;
  const drop = power(ROLL_A, minLines);
  let blocks = 0;
  let roll: u32 = 0;
  let fresh = true;
  let i = 0;
  while (i < windows) {
    if (fresh) roll = rollFrom(hashA, i, minLines, ROLL_A);
    fresh = false;
    const key = fmix(roll);
    const j = findWindow(table, bucketMask, hashA, hashB, key, i, minLines);
    const at = slotAt;
    if (j < 0) {
      store<u32>(at, key);
      store<i32>(at, i + 1, 16);
    } else {
      const covered = nextBlockStart(outStart, blocks, j, count);
      if (covered - j < minLines) {
        store<i32>(at, i + 1, 16);
      } else {
        const cap = min(covered, i) - j;
        if (cap >= minLines) {
          const len = minLines + matchingLines(hashA, hashB, i + minLines, j + minLines, min(cap, count - i) - minLines);
          const out = <usize>blocks << 2;
          store<i32>(outStart + out, i);
          store<i32>(outLines + out, len);
          store<i32>(outSource + out, j);
          blocks++;
          i += len;
          fresh = true;
          continue;
        }
      }
    }
    if (i + 1 < windows) {
      roll = roll * ROLL_A + load<u32>(hashA + (<usize>(i + minLines) << 2)) - load<u32>(hashA + (<usize>i << 2)) * drop;
    }
    i++;
  }
  return blocks;
}

/**
 * Blocks of the text whose windows (winA/winB, winCount of them, `size` lines
 * each) match earlier windows (seenA/seenB/seenOwner, seenCount entries):
 * a seen window starts a block, extended while the next window equals the
 * next entry of the same owner. Outputs as in repeated_blocks (each
 * floor((winCount + size - 1) / size) i32); outSource gets the entry index of
 * the block's first window. `table` is scratch of `tableSize` slots of 8
 * bytes (a power of two >= 16 and >= 2 * seenCount), zeroed here. Returns the
 * block count.
 */
export function seen_blocks(
  winCount: i32, winA: usize, winB: usize, size: i32,
  seenCount: i32, seenA: usize, seenB: usize, seenOwner: usize,
  outStart: usize, outLines: usize, outSource: usize, table: usize, tableSize: i32,
): i32 {
  if (winCount == 0 || seenCount == 0) return 0;
  memory.fill(table, 0, <usize>tableSize << 3);
  const bucketMask = (tableSize >>> 2) - 1;
  for (let e = 0; e < seenCount; e++) {
    const a = load<u32>(seenA + (<usize>e << 2));
    if (findSeen(table, bucketMask, seenB, a, load<u32>(seenB + (<usize>e << 2))) < 0) {
      store<u32>(slotAt, a);
      store<i32>(slotAt, e + 1, 16);
    }
  }
  let blocks = 0;
  let i = 0;
  while (i < winCount) {
    const e = findSeen(table, bucketMask, seenB, load<u32>(winA + (<usize>i << 2)), load<u32>(winB + (<usize>i << 2)));
    if (e < 0) {
      i++;
      continue;
    }
    const whose = load<i32>(seenOwner + (<usize>e << 2));
    let t = 0;
    while (i + t + 1 < winCount && e + t + 1 < seenCount) {
      const wt = <usize>(i + t + 1) << 2;
      const st = <usize>(e + t + 1) << 2;
      if (load<i32>(seenOwner + st) != whose) break;
      if (load<u32>(seenA + st) != load<u32>(winA + wt) || load<u32>(seenB + st) != load<u32>(winB + wt)) break;
      t++;
    }
    const out = <usize>blocks << 2;
    store<i32>(outStart + out, i);
    store<i32>(outLines + out, t + size);
    store<i32>(outSource + out, e);
    blocks++;
    i += t + size;
  }
  return blocks;
}
