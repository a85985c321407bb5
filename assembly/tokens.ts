// Token estimate by character classes. A text costs the sum of its lines; a
// line costs its runs (words, digit groups, punctuation, whitespace, scripts)
// plus its line break. Costs are integer milli-tokens read from a cost table
// the host passes (layout in src/engine/twin/tokens.ts, profiles in
// src/engine/tokens.ts), so the kernel knows no tokenizer. Sums are i64, so
// no text can overflow them.
import { nextBreak, pastBreak } from './lines';

// Cost-table slots (i32 each). Keep in step with COST in src/engine/twin/tokens.ts.
// @ts-ignore: decorator
@inline const BREAK = 0;
// @ts-ignore: decorator
@inline const BREAK_EMPTY = 1;
// @ts-ignore: decorator
@inline const SPACE_BEFORE_WORD = 2;
// @ts-ignore: decorator
@inline const SPACE_BEFORE_DIGIT = 3;
// @ts-ignore: decorator
@inline const WS_RUN = 4;
// @ts-ignore: decorator
@inline const INDENT = 5;
// @ts-ignore: decorator
@inline const WS_LONG_UNIT = 6;
// @ts-ignore: decorator
@inline const WS_LONG_FROM = 7;
// @ts-ignore: decorator
@inline const DIGIT_GROUP = 8;
// @ts-ignore: decorator
@inline const PUNCT_RUN = 9;
// @ts-ignore: decorator
@inline const PUNCT_RUN_JOINED = 10;
// @ts-ignore: decorator
@inline const PUNCT_UNIT = 11;
// @ts-ignore: decorator
@inline const CONTROL = 12;
// @ts-ignore: decorator
@inline const LATIN_EXT = 13;
// @ts-ignore: decorator
@inline const SCRIPT2 = 14;
// @ts-ignore: decorator
@inline const SYMBOL3 = 15;
// @ts-ignore: decorator
@inline const SCRIPT3 = 16;
// @ts-ignore: decorator
@inline const CJK = 17;
// @ts-ignore: decorator
@inline const KANA = 18;
// @ts-ignore: decorator
@inline const HANGUL = 19;
// @ts-ignore: decorator
@inline const ASTRAL = 20;
// @ts-ignore: decorator
@inline const LONE_SURROGATE = 21;
// @ts-ignore: decorator
@inline const HEX_UNIT = 22;
// @ts-ignore: decorator
@inline const HEX_FROM = 23;
// @ts-ignore: decorator
@inline const UPPER_UNIT = 24;
// @ts-ignore: decorator
@inline const WORD_LONG_UNIT = 25;
/** WORD + n - 1 is the cost of an n-letter word, n in 1..WORD_TABLE. */
// @ts-ignore: decorator
@inline const WORD = 26;
// @ts-ignore: decorator
@inline const WORD_TABLE = 16;

// ASCII classes.
// @ts-ignore: decorator
@inline const C_CONTROL: u8 = 0;
// @ts-ignore: decorator
@inline const C_SPACE: u8 = 1;
// @ts-ignore: decorator
@inline const C_LOWER: u8 = 2;
// @ts-ignore: decorator
@inline const C_UPPER: u8 = 3;
// @ts-ignore: decorator
@inline const C_DIGIT: u8 = 4;
// @ts-ignore: decorator
@inline const C_PUNCT: u8 = 5;

/** Class of each ASCII unit: space/tab/VT/FF are space, CR and LF control. */
const ASCII_CLASS = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5,
  5, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
  3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 5, 5, 5, 5, 5,
  5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 5, 5, 5, 5, 0,
]);

// @ts-ignore: decorator
@inline function unitAt(text: usize, i: i32): u32 {
  return <u32>load<u16>(text + (<usize>i << 1));
}

/** ASCII class of a unit; non-ASCII units report C_CONTROL (callers check < 128 first). */
// @ts-ignore: decorator
@inline function classOf(c: u32): u8 {
  return c < 128 ? load<u8>(ASCII_CLASS + <usize>c) : C_CONTROL;
}

// @ts-ignore: decorator
@inline function cost(costs: usize, slot: i32): i64 {
  return <i64>load<i32>(costs + (<usize>slot << 2));
}

// @ts-ignore: decorator
@inline function isDigit(c: u32): bool {
  return c - 48 < 10;
}

// @ts-ignore: decorator
@inline function isLower(c: u32): bool {
  return c - 97 < 26;
}

// @ts-ignore: decorator
@inline function isUpper(c: u32): bool {
  return c - 65 < 26;
}

/** End of the text being scanned: SIMD may read past a line's end but never past this. */
let textLimit: usize = 0;

/**
 * End of the run from `i` of units c with c - lo < span (unsigned), before
 * `to`. One SIMD step tests 8 units, lanes at or past `to` masked off, so a
 * short run costs one comparison and no loop; the scalar tail only runs in
 * the text's last 8 units.
 */
// @ts-ignore: decorator
@inline function runOf(text: usize, i: i32, to: i32, lo: u32, span: u32): i32 {
  const low = i16x8.splat(<i16>lo);
  const width = i16x8.splat(<i16>span);
  while (i < to) {
    const at = text + (<usize>i << 1);
    if (at + 16 > textLimit) break;
    let inside = i16x8.bitmask(i16x8.lt_u(i16x8.sub(v128.load(at), low), width));
    if (to - i < 8) inside &= (1 << (to - i)) - 1;
    if (inside != 0xff) return i + ctz<i32>(~inside);
    i += 8;
  }
  while (i < to && unitAt(text, i) - lo < span) i++;
  return i;
}

/** Cost of a word of n ASCII letters; all capitals cost UPPER_UNIT more per letter after the first. */
// @ts-ignore: decorator
@inline function wordCost(n: i32, allUpper: bool, costs: usize): i64 {
  let sum = n <= WORD_TABLE
    ? cost(costs, WORD + n - 1)
    : cost(costs, WORD + WORD_TABLE - 1) + <i64>(n - WORD_TABLE) * cost(costs, WORD_LONG_UNIT);
  if (allUpper) sum += <i64>(n - 1) * cost(costs, UPPER_UNIT);
  return sum;
}

/**
 * Cost of the ASCII letter/digit run starting at `i` (one pass): words are
 * capitals then lower case ([A-Z]*[a-z]*, so camelCase splits), digits go in
 * groups of 3; a run of `hexFrom`+ units with both letters and digits costs
 * HEX_UNIT per unit instead. Returns the cost; `runEnd` is set to its end.
 */
// @ts-ignore: decorator
@inline function alnumRun(text: usize, i: i32, to: i32, costs: usize, hexFrom: i32): i64 {
  const from = i;
  let sum: i64 = 0;
  let letters = false;
  let digits = false;
  let c = unitAt(text, i);
  while (true) {
    const start = i;
    if (isDigit(c)) {
      i = runOf(text, i + 1, to, 48, 10);
      sum += <i64>((i - start + 2) / 3) * cost(costs, DIGIT_GROUP);
      digits = true;
    } else {
      i = runOf(text, i, to, 65, 26);
      const capitalsOnly = i == to || !isLower(unitAt(text, i));
      i = runOf(text, i, to, 97, 26);
      sum += wordCost(i - start, capitalsOnly, costs);
      letters = true;
    }
    if (i >= to) break;
    c = unitAt(text, i);
    if (!(isDigit(c) || isLower(c) || isUpper(c))) break;
  }
  runEnd = i;
  return i - from >= hexFrom && letters && digits ? <i64>(i - from) * cost(costs, HEX_UNIT) : sum;
}

/** End of the run `alnumRun` last measured (a global: AssemblyScript has no multiple returns). */
let runEnd: i32 = 0;

/** Cost of a non-ASCII unit `c`; `pair`: it starts a valid surrogate pair. */
// @ts-ignore: decorator
@inline function wideCost(c: u32, pair: bool, costs: usize): i64 {
  if (c >= 0xd800 && c <= 0xdfff) return cost(costs, pair ? ASTRAL : LONE_SURROGATE);
  if (c < 0x250) return cost(costs, LATIN_EXT);
  if (c < 0x800) return cost(costs, SCRIPT2);
  if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff)) return cost(costs, CJK);
  if (c >= 0x3040 && c <= 0x30ff) return cost(costs, KANA);
  if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff) || (c >= 0x3130 && c <= 0x318f)) return cost(costs, HANGUL);
  if (c >= 0x2000 && c <= 0x2bff) return cost(costs, SYMBOL3);
  return cost(costs, SCRIPT3);
}

/** Lanes of the 16 bytes in v with c - lo < span (unsigned), as bits. */
// @ts-ignore: decorator
@inline function lanes(v: v128, lo: i32, span: i32): i32 {
  return i8x16.bitmask(i8x16.lt_u(i8x16.sub(v, i8x16.splat(<i8>lo)), i8x16.splat(<i8>span)));
}

/** Lanes of the 16 bytes in v that are blanks (space, tab, VT, FF), as bits. */
// @ts-ignore: decorator
@inline function blankLanes(v: v128): i32 {
  return i8x16.bitmask(v128.or(
    i8x16.eq(v, i8x16.splat(32)),
    v128.or(i8x16.eq(v, i8x16.splat(9)), i8x16.lt_u(i8x16.sub(v, i8x16.splat(11)), i8x16.splat(2))),
  ));
}

/** Set bits of `x`, as i64 (a run count to multiply by a cost). */
// @ts-ignore: decorator
@inline function bits(x: i32): i64 {
  return <i64>popcnt<i32>(x);
}

/** Milli-tokens `blockRuns` last charged (a global: no multiple returns). */
let blockSum: i64 = 0;

/**
 * Charges every run of the 32 units from i (a run start on the line
 * text[from, to)) that ends before the last run of the block (which may go
 * on past it) and before any non-ASCII unit, without a branch per run: each
 * rule of lineCost becomes a population count of class bit masks. A word's
 * table cost is charged per letter (WORD[k] - WORD[k-1] for its k-th letter),
 * which sums to WORD[n]. Returns how many units it charged (0: none, the
 * caller takes the run the scalar way).
 */
// @ts-ignore: decorator
@inline function blockRuns(text: usize, i: i32, from: i32, to: i32, costs: usize): i32 {
  const at = text + (<usize>i << 1);
  // 32 units as bytes, each unit above 255 as 255 (non-ASCII either way), so one test covers 16 of them.
  const low = i8x16.narrow_i16x8_u(
    i16x8.min_u(v128.load(at), i16x8.splat(255)),
    i16x8.min_u(v128.load(at + 16), i16x8.splat(255)),
  );
  const high = i8x16.narrow_i16x8_u(
    i16x8.min_u(v128.load(at + 32), i16x8.splat(255)),
    i16x8.min_u(v128.load(at + 48), i16x8.splat(255)),
  );
  const left = to - i;
  const live = left >= 32 ? -1 : (1 << left) - 1;
  const up = (lanes(low, 65, 26) | (lanes(high, 65, 26) << 16)) & live;
  const lo = (lanes(low, 97, 26) | (lanes(high, 97, 26) << 16)) & live;
  const dg = (lanes(low, 48, 10) | (lanes(high, 48, 10) << 16)) & live;
  const sp = (blankLanes(low) | (blankLanes(high) << 16)) & live;
  const ascii = (lanes(low, 0, 128) | (lanes(high, 0, 128) << 16)) & live;
  const printable = (lanes(low, 33, 94) | (lanes(high, 33, 94) << 16)) & live;
  const letters = up | lo;
  const alnum = letters | dg;
  const punct = printable & ~alnum;
  const control = ascii & ~(alnum | sp | punct);
  const runStarts = (alnum & ~(alnum << 1)) | (sp & ~(sp << 1)) | (punct & ~(punct << 1)) | control | (live & ~ascii);

  // Units charged: up to the last run start when the line goes on past the block, and before any non-ASCII unit.
  let cut = left > 32 ? 31 - clz<i32>(runStarts) : left;
  cut = min(cut, ctz<i32>(live & ~ascii));
  // Runs must stay shorter than the thresholds (hex runs, long blanks): with thresholds of 16 or more
  // (every built-in profile), cut before the first run of 16 alnum or blank units; else keep every run short.
  const longest = min(load<i32>(costs + (HEX_FROM << 2)) - 1, load<i32>(costs + (WS_LONG_FROM << 2)));
  if (longest >= 15) {
    const below = cut >= 32 ? -1 : (1 << cut) - 1;
    let a = alnum & below;
    let b = sp & below;
    a &= a >>> 1; a &= a >>> 2; a &= a >>> 4; a &= a >>> 8; // bits where 16 alnum units start
    b &= b >>> 1; b &= b >>> 2; b &= b >>> 4; b &= b >>> 8;
    const stretch = a | b;
    if (stretch != 0) {
      const first = ctz<i32>(stretch);
      cut = 31 - clz<i32>(runStarts & ((2 << first) - 1)); // that run's start
    }
  } else if (cut > longest) {
    return 0;
  }
  if (cut == 0) return 0;
  const region = cut >= 32 ? -1 : (1 << cut) - 1;
  let sum = bits(control & region) * cost(costs, CONTROL);

  // Punctuation runs: a base cost each (more when a letter follows), PUNCT_UNIT per unit after the first.
  const punctRuns = bits(punct & ~(punct << 1) & region);
  const joined = bits(punct & ~(punct >>> 1) & (letters >>> 1) & region);
  sum += punctRuns * cost(costs, PUNCT_RUN) + joined * (cost(costs, PUNCT_RUN_JOINED) - cost(costs, PUNCT_RUN)) +
    (bits(punct & region) - punctRuns) * cost(costs, PUNCT_UNIT);

  // Blank runs: the line's indent, single blanks (by what follows), longer or trailing runs.
  let blankStarts = sp & ~(sp << 1) & region;
  if (i == from && (blankStarts & 1) != 0) {
    sum += cost(costs, INDENT);
    blankStarts &= ~1;
  }
  const lastOfLine = left <= 32 ? 1 << (left - 1) : 0;
  const single = blankStarts & ~(sp >>> 1) & ~lastOfLine;
  sum += bits(blankStarts & ~single) * cost(costs, WS_RUN) +
    bits(single & (dg >>> 1)) * cost(costs, SPACE_BEFORE_DIGIT) +
    bits(single & ~(dg >>> 1)) * cost(costs, SPACE_BEFORE_WORD);

  // Digit runs: one group per 3 digits, i.e. a group starts at a run start and 3 digits after a group start.
  if ((dg & region) != 0) {
    let groups = dg & ~(dg << 1);
    const third = dg & (dg << 1) & (dg << 2);
    for (let k = 0; k < 5; k++) groups |= (groups << 3) & third;
    sum += bits(groups & region) * cost(costs, DIGIT_GROUP);
  }

  // Words ([A-Z]*[a-z]*): a word starts at a letter after a non-letter, or at a capital after a lower-case letter.
  const wordStarts = letters & (~(letters << 1) | (up & (lo << 1)));
  let nth = wordStarts & region;
  let previous: i64 = 0;
  for (let k = 0; nth != 0; k++) {
    const table = cost(costs, WORD + k);
    sum += bits(nth) * (table - previous);
    previous = table;
    nth = (nth << 1) & letters & ~wordStarts;
  }
  // All-capital words cost UPPER_UNIT per letter after the first: the capitals that continue a word,
  // except those of a word that goes on in lower case (the capitals right before its first lower-case letter).
  const continued = up & ~wordStarts & region;
  if (continued != 0) {
    let mixed = continued & (lo >>> 1);
    while (true) {
      const grown = mixed | ((mixed >>> 1) & continued);
      if (grown == mixed) break;
      mixed = grown;
    }
    sum += bits(continued & ~mixed) * cost(costs, UPPER_UNIT);
  }
  blockSum = sum;
  return cut;
}

/** Milli-tokens of the line content text[from, to) (no line break inside). */
function lineCost(text: usize, from: i32, to: i32, costs: usize): i64 {
  let sum: i64 = 0;
  let i = from;
  const hexFrom = load<i32>(costs + (HEX_FROM << 2));
  const wsLongFrom = load<i32>(costs + (WS_LONG_FROM << 2));
  while (i < to) {
    while (text + (<usize>i << 1) + 64 <= textLimit) {
      const charged = blockRuns(text, i, from, to, costs);
      if (charged == 0) break;
      sum += blockSum;
      i += charged;
      if (i >= to) return sum;
    }
    // One run the scalar way: a long one, non-ASCII, or within 32 units of the text's end.
    const c = unitAt(text, i);
    if (c >= 128) {
      // A valid surrogate pair is one astral character: two units.
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < to && (unitAt(text, i + 1) & 0xfc00) == 0xdc00;
      sum += wideCost(c, pair, costs);
      i += pair ? 2 : 1;
      continue;
    }
    const k = classOf(c);
    let j = i + 1;
    if (k == C_LOWER || k == C_UPPER || k == C_DIGIT) {
      sum += alnumRun(text, i, to, costs, hexFrom);
      j = runEnd;
    } else if (k == C_SPACE) {
      // Spaces by SIMD, tabs and other blanks one by one.
      while (true) {
        j = runOf(text, j, to, 32, 1);
        if (j >= to || classOf(unitAt(text, j)) != C_SPACE) break;
        j++;
      }
      const n = j - i;
      if (i == from) sum += cost(costs, INDENT);
      else if (n > 1 || j == to) sum += cost(costs, WS_RUN);
      else sum += cost(costs, classOf(unitAt(text, j)) == C_DIGIT ? SPACE_BEFORE_DIGIT : SPACE_BEFORE_WORD);
      if (n > wsLongFrom) sum += <i64>(n - wsLongFrom) * cost(costs, WS_LONG_UNIT);
    } else if (k == C_PUNCT) {
      while (j < to && classOf(unitAt(text, j)) == C_PUNCT) j++;
      const next = j < to ? classOf(unitAt(text, j)) : C_CONTROL;
      sum += cost(costs, next == C_LOWER || next == C_UPPER ? PUNCT_RUN_JOINED : PUNCT_RUN);
      sum += <i64>(j - i - 1) * cost(costs, PUNCT_UNIT);
    } else {
      sum += cost(costs, CONTROL);
    }
    i = j;
  }
  return sum;
}

/** Milli-tokens of line text[from, to) plus its break when one follows (to < len). */
// @ts-ignore: decorator
@inline function lineWithBreak(text: usize, len: i32, from: i32, to: i32, costs: usize): i64 {
  let sum = lineCost(text, from, to, costs);
  if (to < len) sum += cost(costs, to == from ? BREAK_EMPTY : BREAK);
  return sum;
}

/** Whole tokens for a milli-token sum: rounded up, capped at i32 max. */
// @ts-ignore: decorator
@inline function toTokens(milli: i64): i32 {
  const tokens = (milli + 999) / 1000;
  return tokens > <i64>i32.MAX_VALUE ? i32.MAX_VALUE : <i32>tokens;
}

/** Estimated tokens of the whole text (lines as in `lines`). */
export function estimate_tokens(text: usize, len: i32, costs: usize): i32 {
  textLimit = text + (<usize>len << 1);
  let sum: i64 = 0;
  let i = 0;
  while (i < len) {
    const end = nextBreak(text, i, len);
    sum += lineWithBreak(text, len, i, end, costs);
    i = end < len ? pastBreak(text, end, len) : len;
  }
  return toTokens(sum);
}

/**
 * Milli-tokens of each line of a line table (`lineStart`/`lineEnd` i32
 * arrays of `count` lines, as `lines` returns), break included, written as
 * f64 (exact integers) to `outMilli`. Returns the whole text's tokens, equal
 * to `estimate_tokens` for the text's own line table.
 */
export function line_tokens(
  text: usize, len: i32, lineStart: usize, lineEnd: usize, count: i32,
  outMilli: usize, costs: usize,
): i32 {
  textLimit = text + (<usize>len << 1);
  let sum: i64 = 0;
  for (let n = 0; n < count; n++) {
    const at = <usize>n << 2;
    const milli = lineWithBreak(text, len, load<i32>(lineStart + at), load<i32>(lineEnd + at), costs);
    store<f64>(outMilli + (<usize>n << 3), <f64>milli);
    sum += milli;
  }
  return toTokens(sum);
}
