// Lines with generated names and ids masked, fingerprinted: where a random
// interface or container name (`vethqgtfn62`) gives nearly every line its own
// template, these fingerprints make such lines one shape again, so the one
// line unlike them stands out (src/engine/anomaly.ts). The masking rule is
// the twin's, src/engine/twin/ids.ts (idMasked); both give bit-identical results.
import { hashUnits } from './hash';

const AT: u16 = 64; // '@': a generated name or id
const HASH: u16 = 35; // '#': a number

// @ts-ignore: decorator
@inline function unit(text: usize, i: i32): u32 {
  return <u32>load<u16>(text + (<usize>i << 1));
}

// @ts-ignore: decorator
@inline function isDigit(c: u32): bool { return c - 48 < 10; }
// @ts-ignore: decorator
@inline function isLower(c: u32): bool { return c - 97 < 26; }
// @ts-ignore: decorator
@inline function isWordUnit(c: u32): bool { return (c | 32) - 97 < 26 || isDigit(c) || c == 95; }
// @ts-ignore: decorator
@inline function isConsonant(c: u32): bool {
  return c - 98 < 25 && c != 101 && c != 105 && c != 111 && c != 117 && c != 121;
}

/** Copies n units; a loop, since memory.copy's call costs more than the few units a line's gaps hold. */
// @ts-ignore: decorator
@inline function copyUnits(to: usize, from: usize, n: i32): void {
  for (let i = 0; i < n; i++) store<u16>(to + (<usize>i << 1), load<u16>(from + (<usize>i << 1)));
}

/**
 * Writes text[from, to) into `out` with each generated word as `@` and each
 * number as `#` (words are [A-Za-z0-9_] runs: digits mixed with letters or
 * `_`, or eight lower-case letters or more with four consonants in a row, are
 * generated; digits alone a number). Returns the units written, or -1 when
 * no word was masked (the line is its own masked form).
 */
function maskIds(text: usize, from: i32, to: i32, out: usize): i32 {
  let n = 0;
  let copied = from;
  for (let k = from; k < to; ) {
    if (!isWordUnit(unit(text, k))) {
      k++;
      continue;
    }
    const word = k;
    let digits = 0;
    let lower = 0;
    let run = 0;
    let consonants = false;
    for (; k < to; k++) {
      const c = unit(text, k);
      if (isDigit(c)) digits++;
      else if (isLower(c)) lower++;
      else if (!isWordUnit(c)) break;
      run = isConsonant(c) ? run + 1 : 0;
      if (run >= 4) consonants = true;
    }
    const len = k - word;
    const mask: u16 = digits > 0 ? (digits < len ? AT : HASH) : lower == len && len >= 8 && consonants ? AT : 0;
    if (mask == 0) continue;
    const kept = word - copied;
    copyUnits(out + (<usize>n << 1), text + (<usize>copied << 1), kept);
    n += kept;
    store<u16>(out + (<usize>n << 1), mask);
    n++;
    copied = k;
  }
  if (copied == from) return -1;
  copyUnits(out + (<usize>n << 1), text + (<usize>copied << 1), to - copied);
  return n + to - copied;
}

/**
 * Lane A of each line's masked fingerprint to outA, lane B to outB, for the
 * `count` lines [starts[i], ends[i]); `scratch` holds the longest line's units.
 */
export function id_masked_hashes(
  text: usize, starts: usize, ends: usize, count: i32,
  outA: usize, outB: usize, scratch: usize,
): i32 {
  for (let i = 0; i < count; i++) {
    const at = <usize>i << 2;
    const from = load<i32>(starts + at);
    const to = load<i32>(ends + at);
    const len = maskIds(text, from, to, scratch);
    store<u32>(outA + at, len < 0
      ? hashUnits(text + (<usize>from << 1), to - from, outB + at)
      : hashUnits(scratch, len, outB + at));
  }
  return count;
}
