// The contract every backend fulfils. Kernels return numbers and spans (typed
// arrays of UTF-16 offsets or line indices); the host slices the original
// string. Both backends return bit-identical results for the same input.

export type BackendName = 'wasm' | 'js';
export type BackendPreference = 'auto' | BackendName;

/** Lines of a text: line i is text.slice(start[i], end[i]) (no CR/LF). */
export interface LineTable {
  readonly count: number;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Two 32-bit lanes of each line's 64-bit content fingerprint. */
  readonly hashA: Uint32Array;
  readonly hashB: Uint32Array;
}

/** Some lines of the text by their spans (a whole LineTable, or a few of its lines). */
export type LineSpans = Pick<LineTable, 'count' | 'start' | 'end'>;

/**
 * The whitespace-separated fields of some lines, as spans of the text: line
 * r's field p is [spans[2 (first[r] + p)], spans[2 (first[r] + p) + 1]).
 */
export interface FieldSpans {
  readonly spans: Int32Array;
  /** Per line, its first field's index; one more entry ends the last line. */
  readonly first: Int32Array;
  /** The most fields a line has. */
  readonly width: number;
}

/** Lines grouped by equal fingerprints. */
export interface LineGroups {
  /** Index of the first line of line i's group (i itself for a first occurrence). */
  readonly group: Int32Array;
  /** Size of line i's group (1 for a unique line). */
  readonly size: Int32Array;
  /** Number of distinct groups. */
  readonly distinct: number;
}

/** 64-bit fingerprints as two 32-bit lanes, one entry per line or per window. */
export interface Fingerprints {
  readonly hashA: Uint32Array;
  readonly hashB: Uint32Array;
}

/**
 * Non-overlapping blocks of lines, in line order: block i covers lines
 * [start[i], start[i] + lines[i]); `source[i]` says where it was seen before
 * (a line of the same text, or an index into earlier window fingerprints).
 */
export interface BlockSpans {
  readonly count: number;
  readonly start: Int32Array;
  readonly lines: Int32Array;
  readonly source: Int32Array;
}

/** Window fingerprints of earlier texts, concatenated; `owner[e]` tells whose entry e is. */
export interface SeenWindows extends Fingerprints {
  readonly owner: Int32Array;
}

/** Estimated tokens per line, from the token kernels. */
export interface LineTokens {
  /** Milli-tokens of line i, its line break included: exact integers that sum to the text's. */
  readonly milli: Float64Array;
  /** The text's estimate: ceil(sum of milli / 1000). */
  readonly tokens: number;
}

/** Per-line classes (layout in flags.ts: severity in bits 0-2, LineFlag bits above). */
export interface LineClasses {
  readonly flags: Int32Array;
  /** OR of every line's class bits, with the highest severity in bits 0-2. */
  readonly summary: number;
}

/**
 * What routing reads about a text (src/engine/contract.ts FEATURE): a shape
 * word per head line, the fields each head line splits into by each
 * delimiter, and counts over the text's first TAG_SAMPLE characters.
 */
export interface TextFeatures {
  /** Head lines described: the first min(line count, HEAD_LINES). */
  readonly lines: number;
  /** Per head line: FEATURE bits. */
  readonly shape: Uint32Array;
  /**
   * Per head line, DELIMITERS.length entries: fields by tab, comma, semicolon, pipe and box bar (quotes
   * honoured) in the line's first FIELD_UNITS units.
   */
  readonly fields: Int32Array;
  /** `<` and an ASCII letter, or `</` and one, in the sample: at least as many as the tags there. */
  readonly tagOpenings: number;
  /** Line feeds in the sample. */
  readonly sampleFeeds: number;
}

/** Input of log window selection: per-line arrays of `count` entries and the limits. */
export interface WindowRequest {
  readonly count: number;
  /** 0 = plain line, higher = more important evidence. */
  readonly priority: Int32Array;
  /** Tokens each line costs (negative counts as 0). */
  readonly cost: Int32Array;
  /** Severity in bits 0-2 (7 counts as 6): LineClasses.flags fits as is. */
  readonly levels: Int32Array;
  /** Token budget for all kept lines. */
  readonly budget: number;
  /** Lines always kept at the start and at the end (shrunk when the budget is tiny). */
  readonly head: number;
  readonly tail: number;
  /** Context lines kept before and after an evidence line. */
  readonly before: number;
  readonly after: number;
}

/** Which lines to keep: kept and omitted spans in order, covering every line once. */
export interface WindowPlan {
  /** (startLine, endLine exclusive, kept 0/1) triples. */
  readonly spans: Int32Array;
  /** 7 counts per span (lines omitted by severity 0..6; all zero for kept spans). */
  readonly omittedBySeverity: Int32Array;
  readonly keptTokens: number;
  readonly keptLines: number;
}

/**
 * The kernels of one backend, each a pure function of its inputs. `begin`
 * copies a text in once; the text kernels then run on that copy until the next
 * `begin`. Array inputs/outputs are plain typed arrays on the host side.
 */
export interface Backend {
  readonly name: BackendName;
  /** The text the text kernels currently run on (set by `begin`). */
  readonly text: string;
  begin(text: string): void;
  lineTable(): LineTable;
  groupLines(count: number, hashA: Uint32Array, hashB: Uint32Array): LineGroups;
  /** Template fingerprint of each line [starts[i], ends[i]) of the current text (volatile fields masked). */
  templateHashes(starts: Int32Array, ends: Int32Array, count: number): Fingerprints;
  /**
   * Maximal blocks of >= minLines lines (by fingerprint) that occurred earlier in
   * the same text; `source` is the first line of the earlier copy, which no block covers.
   */
  repeatedBlocks(count: number, hashA: Uint32Array, hashB: Uint32Array, minLines: number): BlockSpans;
  /** Fingerprint of every window of `size` consecutive lines (count - size + 1 of them, or none). */
  windowHashes(count: number, hashA: Uint32Array, hashB: Uint32Array, size: number): Fingerprints;
  /**
   * Blocks of the text whose `size`-line windows (`windows`) match earlier
   * windows (`seen`) contiguously within one owner; `source` is the index in
   * `seen` of the entry matching the block's first window.
   */
  seenBlocks(windows: Fingerprints, size: number, seen: SeenWindows): BlockSpans;
  /** Estimated tokens of the text under a cost table (src/engine/contract.ts COST). */
  estimateTokens(costs: Int32Array): number;
  /** Estimated milli-tokens of each line of the text's line table. */
  lineTokens(count: number, start: Int32Array, end: Int32Array, costs: Int32Array): LineTokens;
  /** Classes of each line of the current text (see flags.ts). */
  classifyLines(lines: LineSpans): LineClasses;
  /** Features of the first `count` lines of `lines` and of the text's first `sample` characters. */
  textFeatures(lines: LineTable, count: number, sample: number): TextFeatures;
  /** Kept and omitted spans for a token budget (log window selection). */
  planWindows(request: WindowRequest): WindowPlan;
  /**
   * The first `maxFields` whitespace-separated fields of each line
   * [starts[i], ends[i]) of the current text; past the first line's last field
   * with a digit, a line ending as the first one does has no other field.
   */
  fieldSpans(starts: Int32Array, ends: Int32Array, count: number, maxFields: number): FieldSpans;
  /** The first `most` volatile fields (what templateHashes masks) of each line [starts[i], ends[i]) of the current text. */
  volatileFields(starts: Int32Array, ends: Int32Array, count: number, most: number): FieldSpans;
  /** Fingerprint of each line [starts[i], ends[i]) of the current text with its generated names and ids masked. */
  idMaskedHashes(starts: Int32Array, ends: Int32Array, count: number): Fingerprints;
}
