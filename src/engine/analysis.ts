// One text, analysed lazily: each kernel runs at most once, on one copy of the
// text, and its typed arrays are shared by every processor that asks.

/** Fewest lines a repeated block has unless a caller asks otherwise. */
export const DEFAULT_BLOCK_LINES = 3;
import { type LineAnomalies, lineAnomalies } from './anomaly.js';
import { HEAD_LINES, TAG_SAMPLE } from './contract.js';
import { classSummary } from './flags.js';
import { tokenProfile, type TokenProfile } from './token-profiles.js';
import type {
  Backend,
  BackendName,
  BlockSpans,
  FieldSpans,
  Fingerprints,
  LineClasses,
  LineGroups,
  LineTable,
  LineTokens,
  SeenWindows,
  TextFeatures,
  WindowPlan,
  WindowRequest,
} from './types.js';

export class TextAnalysis {
  private lineCache: LineTable | null = null;
  private exactCache: LineGroups | null = null;
  private templateHashCache: Fingerprints | null = null;
  private templateCache: LineGroups | null = null;
  private idMaskedCache: LineGroups | null = null;
  private readonly blockCache = new Map<string, BlockSpans>();
  private readonly windowCache = new Map<number, Fingerprints>();
  private classCache: LineClasses | null = null;
  /** Set by `edited`: the analysis this text was edited from and the lines that changed. */
  private editedFrom: { readonly flags: Int32Array; readonly changed: readonly number[] } | null = null;
  private anomalyCache: LineAnomalies | null = null;
  private featureCache: TextFeatures | null = null;
  private readonly holdingCache = new Map<string, ReadonlySet<number>>();
  private readonly headCache: string[] = [];

  constructor(
    readonly text: string,
    private readonly backend: Backend,
  ) {
    backend.begin(text);
  }

  /** The backend that answered (may change from wasm to js on a trap). */
  get backendName(): BackendName {
    return this.backend.name;
  }

  /** The backend, re-pointed at this text if another analysis used it since. */
  private get kernels(): Backend {
    if (this.backend.text !== this.text) this.backend.begin(this.text);
    return this.backend;
  }

  get lines(): LineTable {
    return (this.lineCache ??= this.kernels.lineTable());
  }

  /** Groups of byte-identical lines. */
  get exact(): LineGroups {
    const lines = this.lines;
    return (this.exactCache ??= this.kernels.groupLines(lines.count, lines.hashA, lines.hashB));
  }

  /** Each line's template fingerprint: the line with volatile fields (numbers, ids, dates, IPs) masked. */
  get templateHashes(): Fingerprints {
    if (!this.templateHashCache) {
      const lines = this.lines;
      this.templateHashCache = this.kernels.templateHashes(lines.start, lines.end, lines.count);
    }
    return this.templateHashCache;
  }

  /** Groups of lines of the same shape (equal templates). */
  get templates(): LineGroups {
    if (!this.templateCache) {
      const { hashA, hashB } = this.templateHashes;
      this.templateCache = this.kernels.groupLines(this.lines.count, hashA, hashB);
    }
    return this.templateCache;
  }

  /**
   * Groups of lines of the same shape once generated names and ids are masked
   * too (`vethqgtfn62`, `sdb1`, `vethxtnkpvx`; see twin/ids.ts idMasked).
   */
  get idMaskedShapes(): LineGroups {
    if (!this.idMaskedCache) {
      const { start, end, count } = this.lines;
      const { hashA, hashB } = this.kernels.idMaskedHashes(start, end, count);
      this.idMaskedCache = this.kernels.groupLines(count, hashA, hashB);
    }
    return this.idMaskedCache;
  }

  /**
   * Blocks of >= minLines lines repeating an earlier block of this text, by
   * exact lines or by templates; `source` is the earlier copy's first line.
   */
  repeatedBlocks(minLines = DEFAULT_BLOCK_LINES, by: 'exact' | 'template' = 'exact'): BlockSpans {
    const key = `${by}:${minLines}`;
    let blocks = this.blockCache.get(key);
    if (!blocks) {
      const { hashA, hashB } = by === 'exact' ? this.lines : this.templateHashes;
      blocks = this.kernels.repeatedBlocks(this.lines.count, hashA, hashB, minLines);
      this.blockCache.set(key, blocks);
    }
    return blocks;
  }

  /** Fingerprints of every window of `size` consecutive lines (exact lines). */
  windows(size: number): Fingerprints {
    let windows = this.windowCache.get(size);
    if (!windows) {
      const lines = this.lines;
      windows = this.kernels.windowHashes(lines.count, lines.hashA, lines.hashB, size);
      this.windowCache.set(size, windows);
    }
    return windows;
  }

  /** Blocks of this text whose `size`-line windows were seen before (see RecentBlocks). */
  seenBlocks(seen: SeenWindows, size: number): BlockSpans {
    return this.kernels.seenBlocks(this.windows(size), size, seen);
  }

  private tokenCache = new Map<TokenProfile, LineTokens>();

  /** Estimated tokens per line (break included) under a profile; sums to the text's estimate. */
  lineTokensFor(profile: TokenProfile = tokenProfile()): LineTokens {
    let cached = this.tokenCache.get(profile);
    if (!cached) {
      const { count, start, end } = this.lines;
      cached = this.kernels.lineTokens(count, start, end, profile.costs);
      this.tokenCache.set(profile, cached);
    }
    return cached;
  }

  /** Estimated tokens per line under the default profile (DeepSeek-V3). */
  get lineTokens(): LineTokens {
    return this.lineTokensFor();
  }

  /** Per-line classes: severity and evidence flags (see flags.ts). */
  get classes(): LineClasses {
    const lines = this.lines;
    return (this.classCache ??= this.editedFrom
      ? this.reclassified(this.editedFrom)
      : this.kernels.classifyLines(lines));
  }

  /**
   * The analysis of `text`, `source`'s text with the lines `changed`
   * (ascending) edited in place and no line added or removed (as removing
   * terminal codes does): a line's class bits are its own text's, so only the
   * changed lines are classified again.
   */
  static edited(source: TextAnalysis, text: string, changed: readonly number[], backend: Backend): TextAnalysis {
    const analysis = new TextAnalysis(text, backend);
    analysis.editedFrom = { flags: source.classes.flags, changed };
    return analysis;
  }

  private reclassified({ flags, changed }: NonNullable<TextAnalysis['editedFrom']>): LineClasses {
    const lines = this.lines;
    // Lines added or removed after all: nothing of the source's lines can be trusted.
    if (lines.count !== flags.length) return this.kernels.classifyLines(lines);
    const count = changed.length;
    const start = new Int32Array(count);
    const end = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      start[k] = lines.start[changed[k]!]!;
      end[k] = lines.end[changed[k]!]!;
    }
    const fresh = this.kernels.classifyLines({ count, start, end }).flags;
    const all = flags.slice();
    for (let k = 0; k < count; k++) all[changed[k]!] = fresh[k]!;
    return { flags: all, summary: classSummary(all) };
  }

  /** What routing reads: the head lines' shapes and delimiter fields, tag-like openings at the start. */
  get features(): TextFeatures {
    const lines = this.lines;
    return (this.featureCache ??= this.kernels.textFeatures(lines, Math.min(lines.count, HEAD_LINES), TAG_SAMPLE));
  }

  /** Head line `i` (< features.lines) as a string, sliced once for every sniffer that reads it. */
  headLine(i: number): string {
    return (this.headCache[i] ??= this.line(i));
  }

  /** The first `n` head lines (at most features.lines). */
  headLines(n: number): string[] {
    return Array.from({ length: Math.min(n, this.features.lines) }, (_, i) => this.headLine(i));
  }

  /**
   * What is unusual about each line (src/engine/anomaly.ts): a failure
   * outcome, a shape seen once or twice where shapes repeat, a numeric outlier
   * among the same-shape lines; with the unusual lines ranked, most first.
   */
  get anomalies(): LineAnomalies {
    return (this.anomalyCache ??= lineAnomalies(this));
  }

  /** The first `maxFields` whitespace-separated fields of each of the lines `rows` (see Backend.fieldSpans). */
  fieldSpans(rows: readonly number[], maxFields: number): FieldSpans {
    const { starts, ends } = this.spansOf(rows);
    return this.kernels.fieldSpans(starts, ends, rows.length, maxFields);
  }

  /** The spans of the lines `rows`, in that order, for the kernels that read some lines. */
  private spansOf(rows: readonly number[]): { starts: Int32Array; ends: Int32Array } {
    const { start, end } = this.lines;
    const starts = new Int32Array(rows.length);
    const ends = new Int32Array(rows.length);
    for (let r = 0; r < rows.length; r++) {
      starts[r] = start[rows[r]!]!;
      ends[r] = end[rows[r]!]!;
    }
    return { starts, ends };
  }

  /** The first `most` volatile fields (what the templates mask) of each of the lines `rows`. */
  volatileFields(rows: readonly number[], most: number): FieldSpans {
    const { starts, ends } = this.spansOf(rows);
    return this.kernels.volatileFields(starts, ends, rows.length, most);
  }

  /** Kept and omitted line spans for a token budget (log window selection). */
  planWindows(request: WindowRequest): WindowPlan {
    return this.kernels.planWindows(request);
  }

  /**
   * Indices of the lines holding an occurrence of any of `literals`, found
   * once per list however many stages ask (the pipeline, then each level a
   * processor tries). One scan for all literals, an alternation of them: a
   * match hides only occurrences that start inside it, on its own line, so
   * the lines are those of every occurrence of every literal. A literal
   * spanning a line break is looked up on its own.
   */
  linesHolding(literals: readonly string[]): ReadonlySet<number> {
    const key = JSON.stringify(literals);
    let found = this.holdingCache.get(key);
    if (!found) {
      found = occurrenceLines(this, literals);
      this.holdingCache.set(key, found);
    }
    return found;
  }

  line(i: number): string {
    const lines = this.lines;
    return this.text.slice(lines.start[i], lines.end[i]);
  }

  /** The index of the line holding character `offset` (a binary search of the line table). */
  lineAt(offset: number): number {
    const { start, count } = this.lines;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (start[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

const escaped = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function occurrenceLines(analysis: TextAnalysis, literals: readonly string[]): Set<number> {
  const found = new Set<number>();
  const text = analysis.text;
  const oneLine: string[] = [];
  for (const literal of literals) {
    if (literal === '') continue;
    if (!/[\r\n]/.test(literal)) {
      oneLine.push(escaped(literal));
      continue;
    }
    for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + literal.length))
      found.add(analysis.lineAt(at));
  }
  if (oneLine.length > 0)
    for (const match of text.matchAll(new RegExp(oneLine.join('|'), 'g'))) found.add(analysis.lineAt(match.index));
  return found;
}
