// The kernel contract both backends keep: the argument checks (a RangeError
// before any kernel runs, so 'auto' never takes a caller's mistake for a
// WebAssembly failure), the table sizes the host allocates, and the layout of
// a token cost table. The WebAssembly backend, the twins and 'auto' import it
// from here; docs/ABI.md documents the same contract.
import type { Fingerprints, SeenWindows, WindowRequest } from './types.js';

// Line tables (lines, group_lines)

/** Power of two >= 2 * count (at least 16): the grouping table's slot count. */
export function tableSizeFor(count: number): number {
  let size = 16;
  while (size < count * 2) size *= 2;
  return size;
}

// Templates (template_hashes)

/**
 * Throws a RangeError unless lines [starts[i], ends[i]) for i < count lie
 * within a text of `textLength` units; returns the longest line's length.
 */
export function checkLineRanges(textLength: number, starts: Int32Array, ends: Int32Array, count: number): number {
  if (!Number.isInteger(count) || count < 0 || count > starts.length || count > ends.length) {
    throw new RangeError(`line count ${count} does not fit line tables of ${starts.length} and ${ends.length} entries`);
  }
  let longest = 0;
  for (let i = 0; i < count; i++) {
    const from = starts[i]!;
    const to = ends[i]!;
    if (from < 0 || to < from || to > textLength) {
      throw new RangeError(`line ${i} [${from}, ${to}) lies outside the text of ${textLength} units`);
    }
    if (to - from > longest) longest = to - from;
  }
  return longest;
}

// Field kernels (field_spans, volatile_fields)

/**
 * Throws unless `maxFields` is a whole number of fields field_spans may read
 * a line (its output holds count x maxFields spans: the bound keeps it sized).
 */
export function checkMaxFields(maxFields: number): void {
  if (!Number.isInteger(maxFields) || maxFields < 0 || maxFields > 4096) {
    throw new RangeError(`maxFields ${maxFields} is not a whole number in [0, 4096]`);
  }
}

/** Throws unless `most` is a whole number of fields to read a line (volatile_fields: any, its output is sized by the lines). */
export function checkFieldCount(most: number): void {
  if (!Number.isInteger(most) || most < 0 || most > 0x7fffffff) {
    throw new RangeError(`most ${most} is not a whole number of fields in [0, 2^31)`);
  }
}

/**
 * Spans volatile_fields may write: per line the first `most`, and no line has
 * more than (length + 1) / 2 + 1 fields (one unit each, apart).
 */
export function volatileFieldsBound(starts: Int32Array, ends: Int32Array, count: number, most: number): number {
  let bound = 0;
  for (let i = 0; i < count; i++) bound += Math.min(most, ((ends[i]! - starts[i]! + 1) >>> 1) + 1);
  return bound;
}

// Repeated and seen blocks (repeated_blocks, window_hashes, seen_blocks)

/** Throws unless `size` is a whole number of lines >= 1. */
export function checkBlockSize(size: number): void {
  if (!Number.isInteger(size) || size < 1 || size > 0x7fffffff) {
    throw new RangeError(`block size must be a whole number of lines >= 1, got ${size}`);
  }
}

/** Throws unless window and seen lanes (and owners) have matching lengths. */
export function checkWindows(windows: Fingerprints, size: number, seen: SeenWindows): void {
  checkBlockSize(size);
  if (windows.hashA.length !== windows.hashB.length) throw new RangeError('window lanes differ in length');
  const n = seen.hashA.length;
  if (seen.hashB.length !== n || seen.owner.length !== n)
    throw new RangeError('seen lanes and owners differ in length');
}

/** Throws unless both lanes hold at least `count` line fingerprints. */
export function checkLanes(count: number, hashA: Uint32Array, hashB: Uint32Array): void {
  if (!Number.isInteger(count) || count < 0 || count > hashA.length || count > hashB.length) {
    throw new RangeError(`line count ${count} does not fit lanes of ${hashA.length} and ${hashB.length} entries`);
  }
}

/** Power of two >= 2 * entries (at least 16): slot count of a repeats hash table. */
export function repeatsTableSize(entries: number): number {
  let size = 16;
  while (size < entries * 2) size *= 2;
  return size;
}

/** Upper bound on blocks of >= `size` lines among `lines` lines (what the host allocates). */
export function maxBlocks(lines: number, size: number): number {
  return Math.floor(lines / size);
}

// Classification (classify_lines)

/** Throws a RangeError unless `start` and `end` hold `count` entries each. */
export function checkLineBounds(count: number, start: Int32Array, end: Int32Array): void {
  if (!Number.isInteger(count) || count < 0 || start.length < count || end.length < count) {
    throw new RangeError(`classify: ${count} lines but ${start.length} starts and ${end.length} ends`);
  }
}

// Per-text features (text_features)

/** Lines of the text's start the features describe (the most any sniffer reads). */
export const HEAD_LINES = 400;

/** Characters of the text's start scanned for tag-like openings and line feeds. */
export const TAG_SAMPLE = 65_536;

/** Units at a line's start its fields are counted over: a longer line is no table row a sniffer weighs. */
export const FIELD_UNITS = 4096;

/** Delimiters whose fields each head line is split into, in the order of TextFeatures.fields. */
export const DELIMITERS = ['\t', ',', ';', '|', '\u2502'] as const;

/** Bits of a head line's shape word; assembly/features.ts repeats them. */
export const FEATURE = {
  /** Empty or whitespace only (what `line.trim() === ''` tests). */
  BLANK: 1 << 0,
  /** Non-empty and only rule characters: `-=+|:`, whitespace, box-drawing lines and corners (a table's rule). */
  SEPARATOR: 1 << 1,
  /** `<` and a letter, `!` or `/` after leading whitespace (markup). */
  MARKUP: 1 << 2,
  /** A date at the start: `[?\d{2,4}[-/:.]\d{1,2}[-/:.]\d{1,2}`. */
  DATED: 1 << 3,
  /** Ends as code does (`{}();,:`, `=>`, `*\/` before trailing space) or opens a comment (`//`, `/*`, `#`, `*`). */
  CODE_END: 1 << 4,
  /** Starts with `@@` (a hunk header's first characters). */
  AT_AT: 1 << 5,
  /** Starts with `diff ` (a diff's file line's first characters). */
  DIFF_WORD: 1 << 6,
} as const;

// Window planning (plan_windows)

/** Throws a RangeError unless every per-line array holds `count` entries. */
export function checkWindowRequest(request: WindowRequest): void {
  const { count, priority, cost, levels } = request;
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`window request: count ${count} is not a line count`);
  for (const [name, values] of [
    ['priority', priority],
    ['cost', cost],
    ['levels', levels],
  ] as const) {
    if (values.length < count)
      throw new RangeError(`window request: ${name} has ${values.length} entries for ${count} lines`);
  }
}

// Token estimation (estimate_tokens, line_tokens)

/** Cost-table slots, shared with the kernel (docs/ABI.md). Values are milli-tokens unless noted. */
export const COST = {
  /** Line break after a non-empty line. */
  BREAK: 0,
  /** Line break ending an empty line (blank lines merge in BPE). */
  BREAK_EMPTY: 1,
  /** A single space between non-spaces, before a letter, punctuation or non-ASCII. */
  SPACE_BEFORE_WORD: 2,
  /** A single space before a digit (tokenizers split digits off). */
  SPACE_BEFORE_DIGIT: 3,
  /** A run of 2+ spaces/tabs mid-line, or trailing whitespace. */
  WS_RUN: 4,
  /** Leading whitespace of a line (indentation), any length. */
  INDENT: 5,
  /** Per unit of a whitespace run beyond WS_LONG_FROM units. */
  WS_LONG_UNIT: 6,
  /** Threshold in units (not a cost). */
  WS_LONG_FROM: 7,
  /** Per group of up to 3 digits. */
  DIGIT_GROUP: 8,
  /** A run of ASCII punctuation not followed by a letter. */
  PUNCT_RUN: 9,
  /** A run of ASCII punctuation followed by a letter (`.com`, `/usr`). */
  PUNCT_RUN_JOINED: 10,
  /** Per punctuation unit after the first of a run. */
  PUNCT_UNIT: 11,
  /** Per ASCII control unit (NUL, ESC, lone CR, DEL, ...). */
  CONTROL: 12,
  /** Per unit U+0080-U+024F (Latin-1 and Latin Extended). */
  LATIN_EXT: 13,
  /** Per unit U+0250-U+07FF (Greek, Cyrillic, Hebrew, Arabic, ...). */
  SCRIPT2: 14,
  /** Per unit U+2000-U+2BFF (typographic punctuation, arrows, box drawing, ...). */
  SYMBOL3: 15,
  /** Per unit of any other BMP character. */
  SCRIPT3: 16,
  /** Per CJK ideograph. */
  CJK: 17,
  /** Per hiragana/katakana unit. */
  KANA: 18,
  /** Per hangul unit. */
  HANGUL: 19,
  /** Per astral character (a valid surrogate pair: emoji, rare scripts). */
  ASTRAL: 20,
  /** Per lone surrogate. */
  LONE_SURROGATE: 21,
  /** Per unit of an ASCII letter+digit run of HEX_FROM+ units with both (hashes, base64, ids). */
  HEX_UNIT: 22,
  /** Threshold in units (not a cost). */
  HEX_FROM: 23,
  /** Per letter after the first of an all-capitals word. */
  UPPER_UNIT: 24,
  /** Per letter of a word beyond WORD_TABLE letters. */
  WORD_LONG_UNIT: 25,
  /** WORD + n - 1: a word of n ASCII letters, n = 1..WORD_TABLE (words split at lower->upper). */
  WORD: 26,
} as const;

export const WORD_TABLE = 16;
/** Length of a cost table. */
export const COST_SLOTS = COST.WORD + WORD_TABLE;
