// The last cut before the ceiling: when even the harshest processor level
// leaves an output over maxTokens, the original's lines are chosen in order
// of what they tell: the lines that must stay (a verdict's), then the
// processor's skeleton (file and hunk headers, commit lines, ...; when it
// alone is over the budget, its first lines by position), then the preserved
// lines, then lines ranked unusual, then the first and the last lines, then
// an even sample of the middle (the quarters, the eighths, ...). Each gap
// becomes a marker naming the lines it covers and counting the skeleton and
// preserved lines among them. Every line shown is a whole line of its source,
// in order. The pipeline falls back to the emergency form only when even this
// does not fit.
import type { TextAnalysis } from '../engine/index.js';
import { lineAloneTokens } from '../processors/costs.js';
import { preservedLines } from '../processors/log/priority.js';
import type { Processor, ProcessorOutput, Skeleton, TokenEstimator } from '../types.js';
import type { PreservedItem } from './preserve.js';
import { count, linesOmission, omittedLines, type PlacedOmission, plural } from '../processors/markers.js';

/** What a marker line costs, about: charged per gap a kept line opens while choosing lines. */
const MARKER_TOKENS = 16;

/** Share of the budget the first and the last lines may take each. */
const END_SHARE = 0.15;

/** Places of one skeleton part a gap's marker names; the rest are counted together. */
const PLACES_NAMED = 3;

/** Lines to sample from, and how a gap among them is named. */
export interface CutSource {
  readonly lines: readonly string[];
  /** Indices of lines that must stay (a verdict's), before anything else. */
  readonly keep: ReadonlySet<number>;
  /**
   * Indices of lines holding preserved items: kept after the skeleton as room
   * allows, those left out counted by the marker of their gap.
   */
  readonly preserved?: ReadonlySet<number>;
  /** The marker for the gap of lines [from, to) (0-based, `to` exclusive) holding no skeleton line. */
  readonly gap: (from: number, to: number) => string;
  /** The lines are the analysed text's, so a gap's marker names them (an omission); else it is a note. */
  readonly original: boolean;
  /** Added to the omitted counts, per line left out. */
  readonly unit: string;
  /** The processor's skeleton of these lines (their indices), kept after the preserved lines. */
  readonly skeleton?: Skeleton;
  /**
   * Lines ranked by how unusual they are, the most first (anomaly scores):
   * kept after the skeleton, before the first and last lines and the samples.
   * Asked for only when the skeleton fits (a text's anomalies are work a cut
   * whose skeleton alone fills the budget never reads).
   */
  readonly unusual?: () => Iterable<number>;
  /** The analysed text these lines are (all of them, in order): their costs are read from its per-line tokens. */
  readonly analysis?: TextAnalysis;
}

function reverseBits(k: number, bits: number): number {
  let r = 0;
  for (let b = 0; b < bits; b++) r |= ((k >>> b) & 1) << (bits - 1 - b);
  return r;
}

function choose(source: CutSource, cost: readonly number[], budget: number): Uint8Array {
  const n = source.lines.length;
  const chosen = new Uint8Array(n);
  let spent = 0;
  // A kept line opens a gap marker unless a neighbour (or the text's edge) is kept: then it
  // shrinks a gap, or closes one.
  const markers = (i: number) => 1 - (i === 0 || chosen[i - 1] ? 1 : 0) - (i === n - 1 || chosen[i + 1] ? 1 : 0);
  const take = (i: number): boolean => {
    if (chosen[i]) return true;
    const c = cost[i]! + markers(i) * MARKER_TOKENS;
    if (spent + c > budget) return false;
    chosen[i] = 1;
    spent += c;
    return true;
  };
  spent += MARKER_TOKENS; // the one gap of a text with nothing kept yet
  for (const i of source.keep) {
    spent += cost[i]! + markers(i) * MARKER_TOKENS;
    chosen[i] = 1;
  }
  // The skeleton, part by part; a part over what is left keeps its first lines and ends the
  // choice, but for the preserved lines that still fit.
  const skeletonFits = (source.skeleton ?? []).every((part) => part.lines.every(take));
  for (const i of source.preserved ?? []) take(i);
  if (!skeletonFits) return chosen;
  for (const i of source.unusual?.() ?? []) take(i);
  let head = 0;
  for (let used = 0; head < n && used + cost[head]! <= budget * END_SHARE && take(head); head++) used += cost[head]!;
  let tail = n - 1;
  for (let used = 0; tail > head && used + cost[tail]! <= budget * END_SHARE && take(tail); tail--) used += cost[tail]!;
  // The middle in bit-reversed order: an even spread at any fill.
  const middle = tail - head + 1;
  if (middle > 0) {
    const bits = Math.max(1, Math.ceil(Math.log2(middle)));
    for (let k = 0; k < 1 << bits && spent < budget; k++) {
      const i = head + reverseBits(k, bits);
      if (i <= tail) take(i);
    }
  }
  return chosen;
}

/** Per line, the skeleton part it belongs to (index + 1, 0 for none) and its place. */
function skeletonOf(source: CutSource): { part: Int32Array; place: Map<number, string> } {
  const part = new Int32Array(source.lines.length);
  const place = new Map<number, string>();
  (source.skeleton ?? []).forEach((p, k) => {
    p.lines.forEach((i, j) => {
      if (part[i] !== 0) return;
      part[i] = k + 1;
      const where = p.places?.[j];
      if (where !== undefined) place.set(i, where);
    });
  });
  return { part, place };
}

/**
 * The marker of a gap holding skeleton or preserved lines: every line
 * counted, skeleton lines by part (and place), in the skeleton's order, then
 * the preserved lines, then the others.
 */
function countedGap(source: CutSource, of: ReturnType<typeof skeletonOf>, from: number, to: number): string | null {
  const skeleton = source.skeleton ?? [];
  const counts = new Map<number, Map<string, number>>();
  let held = 0;
  let preserved = 0;
  for (let i = from; i < to; i++) {
    const k = of.part[i]!;
    if (k === 0) {
      if (source.preserved?.has(i)) preserved++;
      continue;
    }
    held++;
    let places = counts.get(k);
    if (!places) counts.set(k, (places = new Map()));
    const where = of.place.get(i) ?? '';
    places.set(where, (places.get(where) ?? 0) + 1);
  }
  if (held + preserved === 0) return null;
  const parts: string[] = [];
  for (const [k, places] of [...counts].sort((a, b) => a[0] - b[0])) {
    const unit = skeleton[k - 1]!.name;
    const ranked = [...places].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const named = ranked.length > PLACES_NAMED + 1 ? ranked.slice(0, PLACES_NAMED) : ranked;
    for (const [where, n] of named) parts.push(`${plural(n, unit)}${where === '' ? '' : ` in ${where}`}`);
    const rest = ranked.slice(named.length).reduce((a, [, n]) => a + n, 0);
    if (rest > 0) parts.push(`${plural(rest, unit)} elsewhere`);
  }
  if (preserved > 0) parts.push(plural(preserved, 'preserved line'));
  if (to - from > held + preserved) parts.push(`${count(to - from - held - preserved)} other`);
  return omittedLines(from, to, parts.join(', '));
}

function render(source: CutSource, chosen: Uint8Array, cost: readonly number[]): ProcessorOutput {
  const out: string[] = [];
  const omissions: PlacedOmission[] = [];
  const of = skeletonOf(source);
  let omitted = 0;
  for (let i = 0; i < source.lines.length; ) {
    if (chosen[i]) {
      out.push(source.lines[i]!);
      i++;
      continue;
    }
    let j = i;
    let gapCost = 0;
    while (j < source.lines.length && !chosen[j]) gapCost += cost[j++]!;
    // A gap whose lines cost no more than its marker shows them instead.
    if (gapCost <= MARKER_TOKENS) {
      for (let k = i; k < j; k++) out.push(source.lines[k]!);
      i = j;
      continue;
    }
    out.push(countedGap(source, of, i, j) ?? source.gap(i, j));
    if (source.original) omissions.push(linesOmission(i, j));
    omitted += j - i;
    i = j;
  }
  return { text: out.join('\n'), omitted: omitted > 0 ? { [source.unit]: omitted } : {}, omissions };
}

/** Tries of the budget by its overshoot, then by halving what is left between a fit and a miss. */
const SHRINKS = 4;
const HALVINGS = 8;

/**
 * The source's lines sampled to fit `maxTokens` by the estimator, or null when
 * no sample fits (the lines that must stay alone are over it).
 */
export function sampleToFit(source: CutSource, estimator: TokenEstimator, maxTokens: number): ProcessorOutput | null {
  const alone = source.analysis && lineAloneTokens(estimator, source.analysis);
  const cost = alone ? alone.map((tokens) => tokens + 1) : source.lines.map((line) => estimator.estimate(line) + 1);
  const sample = (budget: number) => {
    const output = render(source, choose(source, cost, budget), cost);
    return { output, tokens: estimator.estimate(output.text) };
  };
  let budget = maxTokens;
  let missed = maxTokens;
  // Per-line costs only approximate the whole: shrink the budget until the whole fits.
  for (let attempt = 0; attempt < SHRINKS && budget > 0; attempt++) {
    const { output, tokens } = sample(budget);
    if (tokens <= maxTokens) return output;
    missed = budget;
    budget = Math.floor((budget * maxTokens) / tokens) - MARKER_TOKENS;
  }
  // Markers dearer than charged (a long skeleton's counts): the largest budget below the last
  // miss that fits, by halving.
  let best: ProcessorOutput | null = null;
  let under = 0;
  let over = missed;
  for (let attempt = 0; attempt < HALVINGS && over - under > MARKER_TOKENS; attempt++) {
    const mid = Math.floor((under + over) / 2);
    const { output, tokens } = sample(mid);
    if (tokens <= maxTokens) [best, under] = [output, mid];
    else over = mid;
  }
  if (best !== null) return best;
  const least = sample(0);
  return least.tokens <= maxTokens ? least.output : null;
}

/** What the cut keeps before its samples, besides the preserved lines (see CutSource). */
export type CutOrder = Pick<CutSource, 'skeleton' | 'unusual'>;

/**
 * What a processor's text keeps first when cut: its skeleton, then the lines
 * the analysis ranks unusual (failure outcomes, rare shapes, numeric outliers;
 * src/engine/anomaly.ts), the most unusual first.
 */
export function cutOrder(processor: Pick<Processor, 'skeleton'>, analysis: TextAnalysis): CutOrder {
  const skeleton = processor.skeleton?.(analysis);
  return { ...(skeleton ? { skeleton } : {}), unusual: () => analysis.anomalies.ranked };
}

/**
 * The original's own lines as a cut source: lines holding a verdict's item
 * kept, then `order`'s skeleton, then the lines holding the other items, then
 * the rest of `order`; gaps named by their original lines (`[… lines 120–480 (361) omitted …]`).
 */
export function originalLinesSource(
  analysis: TextAnalysis,
  items: readonly PreservedItem[],
  unit: string,
  order: CutOrder = {},
): CutSource {
  const texts = (verdict: boolean) =>
    items.flatMap((item) => ((item.kind === 'verdict') === verdict ? [item.text] : []));
  const keep = preservedLines(analysis, texts(true));
  const preserved = preservedLines(analysis, texts(false));
  for (const i of keep) preserved.delete(i);
  return {
    lines: Array.from({ length: analysis.lines.count }, (_, i) => analysis.line(i)),
    keep,
    ...(preserved.size > 0 ? { preserved } : {}),
    gap: (from, to) => omittedLines(from, to),
    original: true,
    unit,
    analysis,
    ...order,
  };
}
