// The smaller form an old tool result takes when the context engine replaces
// it: squeeze's one-line type-aware preview, the lines that carry the verdict
// (errors, failing tests, summaries, trace headers, seed 001's preserved
// items) verbatim and in order, and markers naming the original lines left
// out. The caller appends the retrieval notice, so the rest is one
// `ccr_retrieve` (range or grep) away.
import { createBackend, LineFlag, Severity, severityOf, TextAnalysis } from '../../../engine/index.js';
import { preview, type CcrType } from '../../../pipeline/ccr.js';
import { detectPreserved } from '../../../pipeline/preserve.js';
import { route } from '../../../pipeline/route.js';
import { processors } from '../../../processors/index.js';
import { omittedLines } from '../../../processors/markers.js';
import type { TokenEstimator } from '../../../types.js';

/** Verdict lines kept at most; past it the first and last halves (the first failures and the closing summary). */
export const MAX_VERDICT_LINES = 16;
/** Longer lines are left to the markers: a verdict line is shown whole or not at all. */
const MAX_LINE_CHARS = 400;
/** Room for seed 001's preserved items, in tokens (they are few and short where they occur). */
const PRESERVED_BUDGET_TOKENS = 400;

const VERDICT_FLAGS = LineFlag.TestFailure | LineFlag.Summary | LineFlag.StackHeader;
const EXIT_CODE = /^\[exit code: (\d+)\]$/;

export interface DigestInput {
  readonly text: string;
  readonly type: CcrType;
  readonly toolName: string;
  readonly previewMaxChars: number;
  readonly estimator: TokenEstimator;
}

/** Whether a line's classes make it part of the result's verdict (the log processor's critical and error tiers). */
function isVerdict(flags: number): boolean {
  const severity = severityOf(flags);
  return severity >= Severity.Error || (flags & VERDICT_FLAGS) !== 0 || ((flags & LineFlag.Diagnostic) !== 0 && (flags & LineFlag.Failure) !== 0);
}

/** The digest text (no notice), or undefined for an empty text. */
export function digest(input: DigestInput): string | undefined {
  const { text } = input;
  if (text.trim() === '') return undefined;
  const analysis = new TextAnalysis(text, createBackend('auto'));
  const { count } = analysis.lines;
  const flags = analysis.classes.flags;
  // Source files, grep hits and listings have no verdict: their `assert` or `Error` lines are content.
  const kind = processors[route(text, { kind: 'auto', toolName: input.toolName })];
  const verdicts = kind.pathLines === undefined && kind.losslessUpToMax !== true;
  const preserved = detectPreserved(text, true, input.estimator, PRESERVED_BUDGET_TOKENS).items.map((item) => item.text);
  let exitCode: number | undefined;
  const chosen: number[] = [];
  for (let i = 0; i < count; i++) {
    const line = analysis.line(i);
    const exit = EXIT_CODE.exec(line);
    if (exit) exitCode = Number(exit[1]);
    if (line.length > MAX_LINE_CHARS || line.trim() === '') continue;
    if (exit || (verdicts && isVerdict(flags[i]!)) || preserved.some((item) => line.includes(item))) chosen.push(i);
  }
  const kept = chosen.length <= MAX_VERDICT_LINES
    ? chosen
    : [...chosen.slice(0, MAX_VERDICT_LINES / 2), ...chosen.slice(-MAX_VERDICT_LINES / 2)];
  // The harness's bash framing prints `[exit code: N]` only on failure.
  const exit = exitCode ?? (input.toolName === 'bash' ? 0 : undefined);
  const out = [`[${input.type}: ${preview(input.type, text, input.previewMaxChars, exit)}]`];
  let next = 0;
  for (const i of kept) {
    if (i > next) out.push(omittedLines(next, i));
    out.push(analysis.line(i));
    next = i + 1;
  }
  if (next < count) out.push(omittedLines(next, count));
  return out.join('\n');
}
