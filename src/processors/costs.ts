// Per-line token costs in the estimator's own profile where it has one (the
// calibrated estimator), else in the default profile: one rule for every
// line-by-line budget (the log processor, the pipeline's lossless floor).
import { CharClassEstimator, type TextAnalysis } from '../engine/index.js';
import type { TokenEstimator } from '../types.js';

/** Milli-tokens of each line of the analysed text, its line break included. */
export function lineMilliTokens(estimator: TokenEstimator, analysis: TextAnalysis): Float64Array {
  return (estimator instanceof CharClassEstimator ? estimator.lines(analysis) : analysis.lineTokens).milli;
}
