// Line table and exact-duplicate groups. A line ends at LF, at CRLF (one
// break) or at a lone CR (old Mac files, progress output): the break is not
// part of the line. A final line without a break counts; text ending in a
// break has no empty line after it.
import { hashUnits } from './hash';

const LF: u16 = 10;
const CR: u16 = 13;

/** Index of the next LF or CR at or after `i`, or `len`. SIMD scans 8 units a step. */
// @ts-ignore: decorator
@inline export function nextBreak(text: usize, i: i32, len: i32): i32 {
  const lf = i16x8.splat(<i16>LF);
  const cr = i16x8.splat(<i16>CR);
  while (i + 8 <= len) {
    const units = v128.load(text + (<usize>i << 1));
    const mask = i16x8.bitmask(v128.or(i16x8.eq(units, lf), i16x8.eq(units, cr)));
    if (mask != 0) return i + ctz<i32>(mask);
    i += 8;
  }
  while (i < len) {
    const unit = load<u16>(text + (<usize>i << 1));
    if (unit == LF || unit == CR) break;
    i++;
  }
  return i;
}

/** Index just past the break that starts at `at` (< len): 2 for CRLF, else 1. */
// @ts-ignore: decorator
@inline export function pastBreak(text: usize, at: i32, len: i32): i32 {
  return load<u16>(text + (<usize>at << 1)) == CR && at + 1 < len && load<u16>(text + (<usize>(at + 1) << 1)) == LF
    ? at + 2
    : at + 1;
}

/** Number of lines in the text (the size the host allocates for `lines`). */
export function count_lines(text: usize, len: i32): i32 {
  let n = 0;
  let i = 0;
  while (i < len) {
    i = pastBreak(text, nextBreak(text, i, len), len);
    n++;
  }
  return n;
}

/**
 * Fills per-line start, end (exclusive, without the break) and the two
 * fingerprint lanes of each line's content. Returns the number of lines written.
 */
export function lines(
  text: usize, len: i32,
  outStart: usize, outEnd: usize, outHashA: usize, outHashB: usize,
): i32 {
  let n = 0;
  let i = 0;
  while (i < len) {
    const end = nextBreak(text, i, len);
    const at = <usize>n << 2;
    store<i32>(outStart + at, i);
    store<i32>(outEnd + at, end);
    store<u32>(outHashA + at, hashUnits(text + (<usize>i << 1), end - i, outHashB + at));
    n++;
    i = end < len ? pastBreak(text, end, len) : len;
  }
  return n;
}

/**
 * Groups equal fingerprints: `outGroup[i]` is the first line whose (A, B)
 * fingerprint equals line i's, `outSize[i]` the size of that group. `table`
 * is scratch of `tableSize` i32 slots (a power of two >= 2 * count), zeroed
 * here. Returns the number of distinct groups.
 */
export function group_lines(
  count: i32, hashA: usize, hashB: usize,
  outGroup: usize, outSize: usize, table: usize, tableSize: i32,
): i32 {
  memory.fill(table, 0, <usize>tableSize << 2);
  const mask = tableSize - 1;
  let groups = 0;
  for (let i = 0; i < count; i++) {
    const at = <usize>i << 2;
    const a = load<u32>(hashA + at);
    const b = load<u32>(hashB + at);
    let slot = <i32>(a ^ (b * 0x9e3779b1)) & mask;
    let first = -1;
    while (true) {
      const entry = load<i32>(table + (<usize>slot << 2));
      if (entry == 0) break;
      const j = entry - 1;
      const jt = <usize>j << 2;
      if (load<u32>(hashA + jt) == a && load<u32>(hashB + jt) == b) { first = j; break; }
      slot = (slot + 1) & mask;
    }
    if (first < 0) {
      store<i32>(table + (<usize>slot << 2), i + 1);
      first = i;
      groups++;
      store<i32>(outSize + at, 0);
    }
    store<i32>(outGroup + at, first);
    const ft = <usize>first << 2;
    store<i32>(outSize + ft, load<i32>(outSize + ft) + 1);
  }
  for (let i = 0; i < count; i++) {
    const at = <usize>i << 2;
    store<i32>(outSize + at, load<i32>(outSize + (<usize>load<i32>(outGroup + at) << 2)));
  }
  return groups;
}
