// Line templates: a second fingerprint per line, over the line with every
// volatile field (numbers, hex ids, UUIDs, dates, IPs, host:port, numeric
// parts of ids) replaced by one placeholder unit U+FFFF, so lines of the same
// shape share a template. The masking rule is documented in full in the twin,
// src/engine/twin/templates.ts; both give bit-identical results.
import { hashUnits } from './hash';

const PLACEHOLDER: u16 = 0xffff;

// @ts-ignore: decorator
@inline function unit(text: usize, i: i32): u32 {
  return <u32>load<u16>(text + (<usize>i << 1));
}

// @ts-ignore: decorator
@inline function isDigit(c: u32): bool {
  return c - 48 < 10;
}

// @ts-ignore: decorator
@inline function isLetter(c: u32): bool {
  return (c | 32) - 97 < 26;
}

// @ts-ignore: decorator
@inline function isAlnum(c: u32): bool {
  return isDigit(c) || isLetter(c);
}

// @ts-ignore: decorator
@inline function isHex(c: u32): bool {
  return isDigit(c) || (c | 32) - 97 < 6;
}

// @ts-ignore: decorator
@inline function isGlue(c: u32): bool {
  // . : - _ , / +
  return c == 46 || c == 58 || c == 45 || c == 95 || c == 44 || c == 47 || c == 43;
}

/** A unit a progress bar is drawn with (rule 7 of the twin). */
// @ts-ignore: decorator
@inline function isBarUnit(c: u32): bool {
  return c == 32 || c == 35 || c == 42 || c == 45 || c == 46 || c == 60 || c == 61 || c == 62 || c == 126 ||
    c - 0x2500 < 0xa0 || c - 0x2800 < 0x100;
}

/**
 * Where the progress bar opened by `opener` at p closes, or -1: at least 3 bar
 * units up to the closer (`]`, `⸩`, or `|` when a box, block or braille unit
 * is inside). Only lines with a digit are masked, so the twin's digit test holds.
 */
function barEnd(text: usize, p: i32, to: i32, opener: u32): i32 {
  const closer: u32 = opener == 91 ? 93 : opener == 0x2e28 ? 0x2e29 : opener == 124 ? 124 : 0;
  if (closer == 0) return -1;
  let q = p + 1;
  let drawn = false;
  for (; q < to; q++) {
    const c = unit(text, q);
    if (c == closer || !isBarUnit(c)) break;
    if (c >= 0x2500) drawn = true;
  }
  if (q >= to || unit(text, q) != closer || q - p - 1 < 3) return -1;
  if (opener == 124 && !drawn) return -1;
  return q;
}

/** text[from, to) is glue and letter runs of at most two letters (spans across it join). */
function joins(text: usize, from: i32, to: i32): bool {
  let letters = 0;
  for (let p = from; p < to; p++) {
    const c = unit(text, p);
    if (isLetter(c)) {
      if (++letters > 2) return false;
    } else if (isGlue(c)) {
      letters = 0;
    } else {
      return false;
    }
  }
  return true;
}

/** Jan..Dec or Mon..Sun in the three units at p. */
function dateWordAt(text: usize, p: i32): bool {
  const c0 = unit(text, p);
  const c1 = unit(text, p + 1);
  const c2 = unit(text, p + 2);
  if (!isLetter(c0) || !isLetter(c1) || !isLetter(c2)) return false;
  switch ((c0 << 16) | (c1 << 8) | c2) {
    case 0x4a616e: case 0x466562: case 0x4d6172: case 0x417072: case 0x4d6179: case 0x4a756e: // Jan Feb Mar Apr May Jun
    case 0x4a756c: case 0x417567: case 0x536570: case 0x4f6374: case 0x4e6f76: case 0x446563: // Jul Aug Sep Oct Nov Dec
    case 0x4d6f6e: case 0x547565: case 0x576564: case 0x546875: case 0x467269: case 0x536174: case 0x53756e: // Mon..Sun
      return true;
  }
  return false;
}

/** Past the parameters (0x20-0x3f) and final unit (0x40-0x7e) of an escape sequence whose parameters start at q. */
function pastEscape(text: usize, q: i32, to: i32): i32 {
  while (q < to && unit(text, q) - 0x20 < 0x20) q++;
  if (q < to && unit(text, q) - 0x40 < 0x3f) q++;
  return q;
}

/** Past one or two spaces from p (still inside the line), or -1. */
function afterSpaces(text: usize, p: i32, to: i32): i32 {
  if (p >= to || unit(text, p) != 32) return -1;
  p++;
  if (p < to && unit(text, p) == 32) p++;
  return p < to ? p : -1;
}

function dateFollows(text: usize, q: i32, to: i32): bool {
  const r = afterSpaces(text, q, to);
  if (r < 0) return false;
  if (isDigit(unit(text, r))) return true;
  if (r + 3 > to || (r + 3 < to && isAlnum(unit(text, r + 3)))) return false;
  if (!dateWordAt(text, r)) return false;
  const s = afterSpaces(text, r + 3, to);
  return s >= 0 && isDigit(unit(text, s));
}

/** An 8-4-4-4-12 hex UUID with a digit starts at p (its first group is already checked). */
function uuidAt(text: usize, p: i32, to: i32, firstDigits: i32): bool {
  const end = p + 36;
  if (end > to) return false;
  if (end < to && isAlnum(unit(text, end))) return false;
  let digits = firstDigits;
  for (let i = p + 8; i < end; i++) {
    const c = unit(text, i);
    if (i == p + 8 || i == p + 13 || i == p + 18 || i == p + 23) {
      if (c != 45) return false;
    } else if (!isHex(c)) {
      return false;
    } else if (isDigit(c)) {
      digits++;
    }
  }
  return digits > 0;
}

/** End of the module's memory: SIMD loads past a line's end stay below it. */
let limit: usize = 0;

/** text[from, to) has an ASCII digit; a line without one is its own template (see the twin). */
function hasDigit(text: usize, from: i32, to: i32): bool {
  let p = from;
  while (p < to) {
    const at = text + (<usize>p << 1);
    if (at + 16 > limit) break;
    let digit = i16x8.bitmask(i16x8.lt_u(i16x8.sub(v128.load(at), i16x8.splat(48)), i16x8.splat(10)));
    if (to - p < 8) digit &= (1 << (to - p)) - 1;
    if (digit != 0) return true;
    p += 8;
  }
  for (; p < to; p++) if (isDigit(unit(text, p))) return true;
  return false;
}

// Per-line masking state: the open field [fieldStart, fieldEnd), the next text
// unit to copy verbatim, and where the masked units go. Globals keep the hot
// helpers free of out-parameters; kernels run one at a time.
let lineFrom: i32 = 0;
let lineTo: i32 = 0;
let copied: i32 = 0;
let out: usize = 0;
let hasField: bool = false;
let fieldStart: i32 = 0;
let fieldEnd: i32 = 0;
// Where volatile_fields records the line's fields (0: template_hashes, which records none),
// how many it may record, and how many the line has had.
let spansOut: usize = 0;
let spansMost: i32 = 0;
let spansCount: i32 = 0;

/**
 * Appends n units from `from` at `out`, 8 per SIMD step, never writing past
 * them. The copies are short (the text between two fields), where a call to
 * memory.copy costs more than the copy itself.
 */
// @ts-ignore: decorator
@inline function copyUnits(from: usize, n: i32): void {
  let to = out;
  const end = to + (<usize>n << 1);
  while (to + 16 <= end) {
    v128.store(to, v128.load(from));
    to += 16;
    from += 16;
  }
  while (to < end) {
    store<u16>(to, load<u16>(from));
    to += 2;
    from += 2;
  }
  out = end;
}

/**
 * Writes text[copied, fieldStart) and one placeholder for the open field; a
 * run of spaces right before or after the field is written as one space.
 */
// @ts-ignore: decorator
@inline function closeField(text: usize): void {
  if (spansOut != 0) {
    if (spansCount < spansMost) {
      store<i32>(spansOut + (<usize>spansCount << 3), fieldStart);
      store<i32>(spansOut + (<usize>spansCount << 3) + 4, fieldEnd);
    }
    spansCount++;
  }
  let copyTo = fieldStart;
  while (copyTo > copied && unit(text, copyTo - 1) == 32) copyTo--;
  copyTo = fieldStart - copyTo < 2 ? fieldStart : copyTo + 1;
  const n = copyTo - copied;
  copyUnits(text + (<usize>copied << 1), n);
  store<u16>(out, PLACEHOLDER);
  out += 2;
  let spaces = fieldEnd;
  while (spaces < lineTo && unit(text, spaces) == 32) spaces++;
  copied = spaces - fieldEnd >= 2 ? spaces - 1 : fieldEnd;
}

/** Joins [a, b) to the open field if the gap allows, else closes it and opens [a, b) with its sign. */
// @ts-ignore: decorator
@inline function span(text: usize, a: i32, b: i32): void {
  if (hasField) {
    if (joins(text, fieldEnd, a)) {
      fieldEnd = b;
      return;
    }
    closeField(text);
  }
  let start = a;
  if (a > lineFrom && isDigit(unit(text, a))) {
    const sign = unit(text, a - 1);
    if ((sign == 45 || sign == 43) && (a - 1 == lineFrom || !isAlnum(unit(text, a - 2)))) start = a - 1;
  }
  hasField = true;
  fieldStart = start;
  fieldEnd = b;
}

/** Kind of each ASCII unit in an alnum run: 1 digit, 2 hex letter, 4 other letter, 0 ends the run. */
const ALNUM_KIND = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
  0, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0,
  0, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0,
]);

/** Writes the template of text[from, to) to `scratch`; returns its length in units. */
function maskLine(text: usize, from: i32, to: i32, scratch: usize): i32 {
  lineFrom = from;
  lineTo = to;
  copied = from;
  out = scratch;
  hasField = false;
  let p = from;
  while (p < to) {
    const first = unit(text, p);
    if (first == 27 && p + 1 < to && unit(text, p + 1) == 91) {
      p = pastEscape(text, p + 2, to);
      continue;
    }
    if (!isAlnum(first)) {
      const close = barEnd(text, p, to, first);
      if (close >= 0) {
        span(text, p + 1, close);
        p = close + 1;
        continue;
      }
      p++;
      continue;
    }
    let q = p;
    let digits = 0;
    let nonHex = 0;
    for (; q < to; q++) {
      const c = unit(text, q);
      const kind = c < 128 ? <i32>load<u8>(ALNUM_KIND + <usize>c) : 0;
      if (kind == 0) break;
      digits += kind & 1;
      nonHex += kind >> 2;
    }
    const len = q - p;
    if (len == 8 && nonHex == 0 && uuidAt(text, p, to, digits)) {
      span(text, p, p + 36);
      p += 36;
      continue;
    }
    if (digits > 0) {
      if (nonHex == 0 || (nonHex == 1 && len >= 3 && unit(text, p) == 48 && (unit(text, p + 1) | 32) == 120)) {
        span(text, p, q);
      } else {
        while (p < q) {
          if (!isDigit(unit(text, p))) {
            p++;
            continue;
          }
          let r = p + 1;
          while (r < q && isDigit(unit(text, r))) r++;
          span(text, p, r);
          p = r;
        }
      }
    } else if (len == 3 && dateWordAt(text, p) && dateFollows(text, q, to)) {
      span(text, p, q);
    }
    p = q;
  }
  if (hasField) closeField(text);
  const n = to - copied;
  copyUnits(text + (<usize>copied << 1), n);
  return <i32>((out - scratch) >>> 1);
}

/**
 * Template fingerprint lanes of each line [starts[i], ends[i]) into outA/outB.
 * `scratch` holds the longest line's units (2 bytes each). Returns `count`.
 */
export function template_hashes(
  text: usize, starts: usize, ends: usize, count: i32,
  outA: usize, outB: usize, scratch: usize,
): i32 {
  limit = <usize>memory.size() << 16;
  spansOut = 0; // records no spans, even after a volatile_fields call that trapped

  for (let i = 0; i < count; i++) {
    const at = <usize>i << 2;
    const from = load<i32>(starts + at);
    const to = load<i32>(ends + at);
    if (!hasDigit(text, from, to)) { // its template is the line itself: hash it in place
      store<u32>(outA + at, hashUnits(text + (<usize>from << 1), to - from, outB + at));
      continue;
    }
    const len = maskLine(text, from, to, scratch);
    store<u32>(outA + at, hashUnits(scratch, len, outB + at));
  }
  return count;
}

/**
 * The volatile fields (what the template masks) of each line [starts[i],
 * ends[i]), the first `most` of each, packed: field f is [outSpans[2f],
 * outSpans[2f + 1]), line i's fields are outFirst[i] to outFirst[i + 1] - 1
 * (count + 1 entries). A line has at most (length + 1) / 2 + 1 fields, so
 * outSpans holds the sum over lines of min(most, that) spans. `scratch`
 * holds the longest line's units. Returns `count`.
 */
export function volatile_fields(
  text: usize, starts: usize, ends: usize, count: i32, most: i32,
  outSpans: usize, outFirst: usize, scratch: usize,
): i32 {
  limit = <usize>memory.size() << 16;
  spansMost = most;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const at = <usize>i << 2;
    store<i32>(outFirst + at, n);
    spansOut = outSpans + (<usize>n << 3);
    spansCount = 0;
    const from = load<i32>(starts + at);
    const to = load<i32>(ends + at);
    // A line without a digit has no field (its template is itself; maskLine's bars assume one).
    if (hasDigit(text, from, to)) maskLine(text, from, to, scratch);
    n += min(spansCount, most);
  }
  store<i32>(outFirst + (<usize>count << 2), n);
  spansOut = 0;
  return count;
}
