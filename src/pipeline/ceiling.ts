// The last cut before the ceiling: when even the harshest processor level
// leaves an output over maxTokens, lines are sampled evenly (head and tail
// first, then the middle, the quarters, ...) with every preserved line kept,
// and each gap becomes a marker naming the lines it covers. Every line shown
// is a whole line of its source, in order. The pipeline falls back to the
// emergency form when even this does not fit.
import type { TextAnalysis } from '../engine/index.js';
import { preservedLines } from '../processors/log/priority.js';
import type { ProcessorOutput, TokenEstimator } from '../types.js';
import { omittedLines } from '../processors/markers.js';

/** What a marker line costs, about: reserved per gap while choosing lines. */
const MARKER_TOKENS = 16;

/** Share of the budget the first and the last lines may take each. */
const END_SHARE = 0.15;

/** Lines to sample from, and how a gap among them is named. */
export interface CutSource {
  readonly lines: readonly string[];
  /** Indices of lines that must stay (preserved items). */
  readonly keep: ReadonlySet<number>;
  /** The marker for the gap of lines [from, to) (0-based, `to` exclusive). */
  readonly gap: (from: number, to: number) => string;
  /** Added to the omitted counts, per line left out. */
  readonly unit: string;
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
  const take = (i: number): boolean => {
    if (chosen[i]) return true;
    const c = cost[i]! + MARKER_TOKENS;
    if (spent + c > budget) return false;
    chosen[i] = 1;
    spent += c;
    return true;
  };
  for (const i of source.keep) {
    chosen[i] = 1;
    spent += cost[i]! + MARKER_TOKENS;
  }
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

function render(source: CutSource, chosen: Uint8Array): ProcessorOutput {
  const out: string[] = [];
  let omitted = 0;
  for (let i = 0; i < source.lines.length; ) {
    if (chosen[i]) {
      out.push(source.lines[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < source.lines.length && !chosen[j]) j++;
    out.push(source.gap(i, j));
    omitted += j - i;
    i = j;
  }
  return { text: out.join('\n'), omitted: omitted > 0 ? { [source.unit]: omitted } : {} };
}

/**
 * The source's lines sampled to fit `maxTokens` by the estimator, or null when
 * no sample fits (the preserved lines alone are over it).
 */
export function sampleToFit(source: CutSource, estimator: TokenEstimator, maxTokens: number): ProcessorOutput | null {
  const cost = source.lines.map((line) => estimator.estimate(line) + 1);
  let budget = maxTokens;
  // Per-line costs only approximate the whole: shrink the budget until the whole fits.
  for (let attempt = 0; attempt < 4 && budget > 0; attempt++) {
    const output = render(source, choose(source, cost, budget));
    const tokens = estimator.estimate(output.text);
    if (tokens <= maxTokens) return output;
    budget = Math.floor((budget * maxTokens) / tokens) - MARKER_TOKENS;
  }
  return null;
}

/**
 * The original's own lines as a cut source: lines holding a preserved string
 * kept, gaps named by their original lines (`[… lines 120–480 (361) omitted …]`).
 */
export function originalLinesSource(analysis: TextAnalysis, preserve: readonly string[], unit: string): CutSource {
  return {
    lines: Array.from({ length: analysis.lines.count }, (_, i) => analysis.line(i)),
    keep: preservedLines(analysis, preserve),
    gap: (from, to) => omittedLines(from, to),
    unit,
  };
}
