// Evidence first: how much each line of a log matters, before any budget is
// spent. Priorities are i32 for the window-selection kernel: a base tier times
// 65536 plus a spread key, so same-shape evidence is sampled evenly across the
// log (first and last first, then the middle, then the quarters...) instead of
// exhausting the budget on the first few of one shape.
import { EVIDENCE_FLAGS, LineFlag, Severity, severityOf } from '../../engine/flags.js';
import { Anomaly, lowerBound, type TextAnalysis } from '../../engine/index.js';

/** Base tiers, highest first. */
export const Tier = {
  Preserved: 9,
  Critical: 8,
  Error: 7,
  Failure: 6,
  Warning: 5,
  Notable: 4,
  TraceRoot: 4,
  Frame: 2,
  Repeat: 1,
  Plain: 0,
} as const;

const SPREAD = 65536;

// Read once: per-line loops below use plain numbers, not module bindings.
const { TestFailure, Summary, StackHeader, Diagnostic, Failure, Location, StackFrame, Outcome } = LineFlag;
const CRITICAL_FLAGS = TestFailure | Summary | StackHeader;
const HEADER_FLAGS = EVIDENCE_FLAGS & ~Location;
const { Fatal, Error: ErrorLevel, Warn } = Severity;

/**
 * The last error lines of a log that rank as critical: the latest failures
 * before its end. Three, as a failing exit often takes two lines (strace's
 * `exit_group(1)` and `+++ exited with 1 +++`) and its cause comes before them.
 */
const LAST_ERRORS = 3;

/** Lines at the end of a log that say how it ended. */
const END_LINES = 10;

/** A failure outcome (a kill, a non-zero exit, a failed call) among the last lines. */
function endsInFailure(flags: Int32Array, count: number): boolean {
  for (let i = count - 1; i >= Math.max(0, count - END_LINES); i--) if (flags[i]! & Outcome) return true;
  return false;
}

/** Frames right after a trace header or error line that count as the trace's root. */
const ROOT_FRAMES = 4;

function baseTier(flags: number): number {
  const severity = severityOf(flags);
  if (flags & CRITICAL_FLAGS || severity === Fatal) {
    return Tier.Critical;
  }
  if (severity === ErrorLevel || (flags & Diagnostic && flags & Failure)) return Tier.Error;
  if (flags & Failure) return Tier.Failure;
  if (severity === Warn || flags & Diagnostic) return Tier.Warning;
  if (flags & Location) return Tier.Notable;
  if (flags & StackFrame) return Tier.Frame;
  return Tier.Plain;
}

/** pytest's failure detail lines: `E       AssertionError: ...` (E, then at least 3 blanks). */
function pytestError(analysis: TextAnalysis, i: number): boolean {
  const at = analysis.lines.start[i]!;
  const text = analysis.text;
  return text.charCodeAt(at) === 69 && text.startsWith('   ', at + 1) && analysis.lines.end[i]! > at + 4;
}

function reverseBits(k: number, bits: number): number {
  let r = 0;
  for (let b = 0; b < bits; b++) r |= ((k >>> b) & 1) << (bits - 1 - b);
  return r;
}

/**
 * Line indices of the preserved strings (docs/GLOSSARY.md, Preserved item),
 * found by position (TextAnalysis.linesHolding), as a set the caller may change.
 */
export function preservedLines(analysis: TextAnalysis, preserve: readonly string[]): Set<number> {
  return new Set(analysis.linesHolding(preserve));
}

/**
 * The runs of lines from..to (inclusive) that hold no kept line, as inclusive
 * [first, last] pairs: what a fold over from..to may cover once its preserved
 * lines stay in the output between its pieces.
 */
export function runsAround(from: number, to: number, kept: ReadonlySet<number>): [number, number][] {
  const runs: [number, number][] = [];
  let start = from;
  for (let i = from; i <= to + 1; i++) {
    if (i <= to && !kept.has(i)) continue;
    if (i > start) runs.push([start, i - 1]);
    start = i + 1;
  }
  return runs;
}

/**
 * runsAround with the kept lines as ascending indices: the runs between the
 * kept lines inside from..to, found by a binary search and a walk over those
 * lines alone, not over every line of the span (a git log's fold of its older
 * commits spans most of a big log).
 */
export function runsAroundSorted(from: number, to: number, keptInOrder: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  let start = from;
  for (let k = lowerBound(keptInOrder, from); k < keptInOrder.length && keptInOrder[k]! <= to; k++) {
    const i = keptInOrder[k]!;
    if (i > start) runs.push([start, i - 1]);
    start = i + 1;
  }
  if (to + 1 > start) runs.push([start, to]);
  return runs;
}

export interface Priorities {
  readonly priority: Int32Array;
  /** Per line: its base tier (Tier), before the spread's diversity penalty. */
  readonly tier: Int8Array;
  /** Lines with a base tier above Repeat (the evidence). */
  readonly evidence: number;
  /** Tokens of the distinct evidence lines of Warning tier and above. */
  readonly evidenceCost: number;
}

export function prioritise(analysis: TextAnalysis, cost: Int32Array, preserve: readonly string[]): Priorities {
  const count = analysis.lines.count;
  const flags = analysis.classes.flags;
  const exact = analysis.exact;
  const preserved = preservedLines(analysis, preserve);
  const base = new Int8Array(count);
  const unusual = analysis.anomalies.reasons;
  let sinceHeader = ROOT_FRAMES + 1;
  let evidence = 0;
  let evidenceCost = 0;
  for (let i = 0; i < count; i++) {
    const f = flags[i]!;
    let tier = preserved.has(i) ? Tier.Preserved : pytestError(analysis, i) ? Tier.Error : baseTier(f);
    // A failure outcome in any tool's words (`= -1 ENOENT`, a kill, a
    // non-zero exit) is an error whatever level field the line has; a rare
    // shape where shapes repeat, or a number far outside its column, is
    // evidence like a warning (src/engine/anomaly.ts).
    if (tier < Tier.Error && f & Outcome) tier = Tier.Error;
    if (tier < Tier.Warning && unusual[i]! & (Anomaly.RareShape | Anomaly.Outlier)) tier = Tier.Warning;
    if (f & StackFrame) {
      if (sinceHeader < ROOT_FRAMES && tier < Tier.TraceRoot) tier = Tier.TraceRoot;
      sinceHeader++;
    } else {
      sinceHeader = tier >= Tier.Failure || f & HEADER_FLAGS ? 0 : ROOT_FRAMES + 1;
    }
    if (tier > Tier.Repeat && exact.group[i] !== i && tier !== Tier.Preserved) tier = Tier.Repeat;
    base[i] = tier;
    if (tier > Tier.Repeat) evidence++;
    if (tier >= Tier.Warning) evidenceCost += cost[i]!;
  }
  // In a log that ends in failure, the last errors before the end are the
  // likeliest cause (the one failed open before a traced process exits 1,
  // among a thousand probes that failed harmlessly before it): they rank with
  // the critical lines. An exact repeat stands for its first occurrence.
  if (endsInFailure(flags, count)) {
    for (let i = count - 1, left = LAST_ERRORS; i >= 0 && left > 0; i--) {
      const first = exact.group[i]!;
      if (base[first]! !== Tier.Error) continue;
      base[first] = Tier.Critical;
      left--;
    }
  }
  // Spread keys per (shape, tier): the k-th of m occurrences gets the bit-reversed k.
  const shape = analysis.anomalies.shape;
  const seen = new Map<number, number>();
  const totals = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    if (base[i]! <= Tier.Repeat) continue;
    const key = shape[i]! * 16 + base[i]!;
    totals.set(key, (totals.get(key) ?? 0) + 1);
  }
  const priority = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const tier = base[i]!;
    if (tier <= Tier.Repeat) {
      priority[i] = tier * SPREAD;
      continue;
    }
    const key = shape[i]! * 16 + tier;
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    const m = totals.get(key)!;
    const bits = Math.max(1, Math.ceil(Math.log2(m)));
    // The last occurrence ranks right after the first: the latest state matters.
    const spread = k === 0 ? 0 : k === m - 1 ? 1 : 1 + reverseBits(k, bits);
    // Diversity: past its first samples a frequent shape loses tiers, so a
    // rare line outranks the 40th "not found" of one kind.
    const penalty = spread < 2 ? 0 : spread < 8 ? 1 : spread < 32 ? 2 : 3;
    const effective = tier === Tier.Preserved ? tier : Math.max(Tier.Frame, tier - penalty);
    priority[i] = effective * SPREAD + (SPREAD - 1 - Math.min(spread, SPREAD - 1));
  }
  return { priority, tier: base, evidence, evidenceCost };
}
