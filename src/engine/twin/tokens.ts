// TypeScript twin of assembly/tokens.ts: the same runs, the same integer
// milli-token sums (exact in doubles far beyond any text), the same results.
import { COST, WORD_TABLE } from '../contract.js';
import { breakScanner, pastBreak } from './lines.js';

const C_CONTROL = 0;
const C_SPACE = 1;
const C_LOWER = 2;
const C_UPPER = 3;
const C_DIGIT = 4;
const C_PUNCT = 5;

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] =
    c === 9 || c === 11 || c === 12 || c === 32
      ? C_SPACE
      : c >= 97 && c <= 122
        ? C_LOWER
        : c >= 65 && c <= 90
          ? C_UPPER
          : c >= 48 && c <= 57
            ? C_DIGIT
            : c > 32 && c < 127
              ? C_PUNCT
              : C_CONTROL;
}

function classOf(c: number): number {
  return c < 128 ? ASCII_CLASS[c]! : C_CONTROL;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLower = (c: number) => c >= 97 && c <= 122;
const isUpper = (c: number) => c >= 65 && c <= 90;

function wordCost(n: number, capitalsOnly: boolean, costs: Int32Array): number {
  const sum =
    n <= WORD_TABLE
      ? costs[COST.WORD + n - 1]!
      : costs[COST.WORD + WORD_TABLE - 1]! + (n - WORD_TABLE) * costs[COST.WORD_LONG_UNIT]!;
  return capitalsOnly ? sum + (n - 1) * costs[COST.UPPER_UNIT]! : sum;
}

/** End of the run `alnumRun` last measured. */
let runEnd = 0;

/**
 * Cost of the ASCII letter/digit run starting at `i`: words are [A-Z]*[a-z]*
 * (camelCase splits), digits go in groups of 3; a run of `hexFrom`+ units with
 * both letters and digits costs HEX_UNIT per unit instead. Sets `runEnd`.
 */
function alnumRun(text: string, i: number, to: number, costs: Int32Array, hexFrom: number): number {
  const from = i;
  let sum = 0;
  let letters = false;
  let digits = false;
  let c = text.charCodeAt(i);
  for (;;) {
    const start = i;
    if (isDigit(c)) {
      do i++;
      while (i < to && isDigit(text.charCodeAt(i)));
      sum += Math.floor((i - start + 2) / 3) * costs[COST.DIGIT_GROUP]!;
      digits = true;
    } else {
      while (i < to && isUpper(text.charCodeAt(i))) i++;
      const capitalsOnly = i === to || !isLower(text.charCodeAt(i));
      while (i < to && isLower(text.charCodeAt(i))) i++;
      sum += wordCost(i - start, capitalsOnly, costs);
      letters = true;
    }
    if (i >= to) break;
    c = text.charCodeAt(i);
    if (!(isDigit(c) || isLower(c) || isUpper(c))) break;
  }
  runEnd = i;
  return i - from >= hexFrom && letters && digits ? (i - from) * costs[COST.HEX_UNIT]! : sum;
}

function wideCost(c: number, pair: boolean, costs: Int32Array): number {
  if (c >= 0xd800 && c <= 0xdfff) return costs[pair ? COST.ASTRAL : COST.LONE_SURROGATE]!;
  if (c < 0x250) return costs[COST.LATIN_EXT]!;
  if (c < 0x800) return costs[COST.SCRIPT2]!;
  if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff))
    return costs[COST.CJK]!;
  if (c >= 0x3040 && c <= 0x30ff) return costs[COST.KANA]!;
  if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff) || (c >= 0x3130 && c <= 0x318f))
    return costs[COST.HANGUL]!;
  if (c >= 0x2000 && c <= 0x2bff) return costs[COST.SYMBOL3]!;
  return costs[COST.SCRIPT3]!;
}

/** Milli-tokens of the line content text[from, to). */
function lineCost(text: string, from: number, to: number, costs: Int32Array): number {
  let sum = 0;
  let i = from;
  const hexFrom = costs[COST.HEX_FROM]!;
  const wsLongFrom = costs[COST.WS_LONG_FROM]!;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < to && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      sum += wideCost(c, pair, costs);
      i += pair ? 2 : 1;
      continue;
    }
    const k = ASCII_CLASS[c]!;
    let j = i + 1;
    if (k === C_LOWER || k === C_UPPER || k === C_DIGIT) {
      sum += alnumRun(text, i, to, costs, hexFrom);
      j = runEnd;
    } else if (k === C_SPACE) {
      while (j < to && classOf(text.charCodeAt(j)) === C_SPACE) j++;
      const n = j - i;
      if (i === from) sum += costs[COST.INDENT]!;
      else if (n > 1 || j === to) sum += costs[COST.WS_RUN]!;
      else sum += costs[classOf(text.charCodeAt(j)) === C_DIGIT ? COST.SPACE_BEFORE_DIGIT : COST.SPACE_BEFORE_WORD]!;
      if (n > wsLongFrom) sum += (n - wsLongFrom) * costs[COST.WS_LONG_UNIT]!;
    } else if (k === C_PUNCT) {
      while (j < to && classOf(text.charCodeAt(j)) === C_PUNCT) j++;
      const next = j < to ? classOf(text.charCodeAt(j)) : C_CONTROL;
      sum += costs[next === C_LOWER || next === C_UPPER ? COST.PUNCT_RUN_JOINED : COST.PUNCT_RUN]!;
      sum += (j - i - 1) * costs[COST.PUNCT_UNIT]!;
    } else {
      sum += costs[COST.CONTROL]!;
    }
    i = j;
  }
  return sum;
}

function lineWithBreak(text: string, from: number, to: number, costs: Int32Array): number {
  const sum = lineCost(text, from, to, costs);
  return to < text.length ? sum + costs[from === to ? COST.BREAK_EMPTY : COST.BREAK]! : sum;
}

/** Whole tokens for a milli-token sum: rounded up, capped at i32 max like the kernel. */
function toTokens(milli: number): number {
  return Math.min(Math.floor((milli + 999) / 1000), 0x7fffffff);
}

/** Milli-tokens of the whole text, lines split as in `lineTable`. */
export function textMilli(text: string, costs: Int32Array): number {
  const len = text.length;
  let sum = 0;
  const next = breakScanner(text);
  for (let i = 0; i < len; ) {
    const end = next(i);
    sum += lineWithBreak(text, i, end, costs);
    i = end < len ? pastBreak(text, end) : len;
  }
  return sum;
}

export function estimateTokens(text: string, costs: Int32Array): number {
  return toTokens(textMilli(text, costs));
}

/** Milli-tokens of each line (break included) of a line table, and the whole text's tokens. */
export function lineTokens(
  text: string,
  start: Int32Array,
  end: Int32Array,
  count: number,
  costs: Int32Array,
): { milli: Float64Array; tokens: number } {
  const milli = new Float64Array(count);
  let sum = 0;
  for (let n = 0; n < count; n++) {
    const m = lineWithBreak(text, start[n]!, end[n]!, costs);
    milli[n] = m;
    sum += m;
  }
  return { milli, tokens: toTokens(sum) };
}
