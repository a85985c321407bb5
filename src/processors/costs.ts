// Per-line token costs in the estimator's own profile where it has one (the
// calibrated estimator), else in the default profile: one rule for every
// line-by-line budget (the log processor, the pipeline's lossless floor, the
// budget searches of the diff, git log and listing processors).
import { CharClassEstimator, COST, textMilliTokens, tokenProfile, type TextAnalysis } from '../engine/index.js';
import type { ProcessorInput, TokenEstimator } from '../types.js';

/** Milli-tokens of each line of the analysed text, its line break included. */
export function lineMilliTokens(estimator: TokenEstimator, analysis: TextAnalysis): Float64Array {
  return (estimator instanceof CharClassEstimator ? estimator.lines(analysis) : analysis.lineTokens).milli;
}

/**
 * The estimate of `text`, counted from the analysis's per-line costs when it
 * is the analysed text and they are the estimator's own (summed once: no pass
 * over an 8 MB input to learn what the analysis already says), else by the
 * estimator.
 */
export function textTokens(estimator: TokenEstimator, analysis: TextAnalysis, text: string): number {
  if (text.length > 0 && estimator instanceof CharClassEstimator && text === analysis.text)
    return estimator.lines(analysis).tokens;
  return estimator.estimate(text);
}

/** A processor's estimate: its input's own tokens from its analysis (textTokens), any other text by the estimator. */
export function estimateFor(input: ProcessorInput): (text: string) => number {
  return (text) => textTokens(input.estimator, input.analysis, text);
}

/**
 * Output costs that sum to the estimator's own estimate to the token: its
 * character-class profile over the analysed text itself. Null otherwise (a
 * caller's estimator, a text other than the analysed one), where a budget
 * search estimates what it renders.
 */
export function exactCosts(input: ProcessorInput): OutputCosts | null {
  const exact = input.estimator instanceof CharClassEstimator && input.text === input.analysis.text;
  return exact ? new OutputCosts(input.estimator, input.analysis) : null;
}

/**
 * Tokens of each line of the analysed text alone (no break), equal to
 * `estimator.estimate(analysis.line(i))`: the per-line costs less their breaks,
 * without a call per line. Null for an estimator of the caller's (its estimate
 * need not be line-local).
 */
export function lineAloneTokens(estimator: TokenEstimator, analysis: TextAnalysis): number[] | null {
  if (!(estimator instanceof CharClassEstimator)) return null;
  const { costs } = estimator.profile;
  const { milli } = estimator.lines(analysis);
  const { count, start, end } = analysis.lines;
  const length = analysis.text.length;
  const tokens = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const own = end[i]! < length ? milli[i]! - costs[start[i] === end[i] ? COST.BREAK_EMPTY : COST.BREAK]! : milli[i]!;
    tokens[i] = toTokens(own);
  }
  return tokens;
}

/** Whole tokens for a milli-token sum, rounded up like the estimator. */
function toTokens(milli: number): number {
  return Math.min(Math.floor((milli + 999) / 1000), 0x7fffffff);
}

/**
 * Costs of an output made of original lines and markers joined by '\n': a
 * budget search sums these as it keeps or folds lines instead of rendering
 * and re-estimating. The character-class estimate is line-local, so for that
 * estimator the sums are exact (the output's estimate to the token); for
 * another estimator they are the default profile's estimate.
 */
export class OutputCosts {
  /** prefix[i]: milli-tokens of lines 0..i-1, each with the break after it. */
  private readonly prefix: Float64Array;
  private readonly costs: Int32Array;
  private readonly empty: (i: number) => boolean;
  readonly lineCount: number;
  /** The estimate of the analysed text itself. */
  readonly textTokens: number;

  constructor(estimator: TokenEstimator, analysis: TextAnalysis) {
    const profile = estimator instanceof CharClassEstimator ? estimator.profile : tokenProfile();
    this.costs = profile.costs;
    const { milli, tokens } = analysis.lineTokensFor(profile);
    this.textTokens = tokens;
    const { count, start, end } = analysis.lines;
    const length = analysis.text.length;
    this.lineCount = count;
    this.empty = (i) => start[i] === end[i];
    this.prefix = new Float64Array(count + 1);
    for (let i = 0; i < count; i++) {
      // The text's last line may have no break; in an output another line can follow it.
      const own = end[i]! < length ? milli[i]! : milli[i]! + this.breakAfter(start[i] === end[i]);
      this.prefix[i + 1] = this.prefix[i]! + own;
    }
  }

  /** Milli-tokens of the break after a line. */
  breakAfter(empty: boolean): number {
    return this.costs[empty ? COST.BREAK_EMPTY : COST.BREAK]!;
  }

  /** Milli-tokens of lines from..to (inclusive), each with its break. */
  lines(from: number, to: number): number {
    return to < from ? 0 : this.prefix[to + 1]! - this.prefix[from]!;
  }

  /** Whether line i is empty (its break costs BREAK_EMPTY). */
  lineEmpty(i: number): boolean {
    return this.empty(i);
  }

  /** Milli-tokens of a marker or other piece of output, with the break after it. */
  piece(text: string): number {
    const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    return textMilliTokens(text, this.costs) + this.breakAfter(lastBreak === text.length - 1);
  }

  /**
   * Tokens of an output whose pieces add up to `milli` (each with its break),
   * the last piece being empty or not: that piece has no break after it.
   */
  tokens(milli: number, lastEmpty: boolean): number {
    return milli <= 0 ? 0 : toTokens(milli - this.breakAfter(lastEmpty));
  }

  /** Tokens of a fragment of lines from..to joined by '\n', as the estimator counts that text. */
  spanTokens(from: number, to: number): number {
    return to < from ? 0 : this.tokens(this.lines(from, to), this.empty(to));
  }

  /** Tokens of one piece of text alone. */
  pieceTokens(text: string): number {
    return text === '' ? 0 : toTokens(textMilliTokens(text, this.costs));
  }
}
