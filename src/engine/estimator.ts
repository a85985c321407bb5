// The TokenEstimator (src/types.ts): a character-class estimate over the
// tokens kernels under one profile (token-profiles.ts).
import type { TextAnalysis } from './analysis.js';
import { backendFor, lazyWasm } from './load.js';
import { tokenProfile, type TokenProfile, type TokenProfileName } from './token-profiles.js';
import { textMilli } from './twin/tokens.js';
import type { Backend, BackendName, BackendPreference, LineTokens } from './types.js';

export interface EstimatorOptions {
  profile?: TokenProfileName | TokenProfile;
  /** A preference, or a backend to share (default 'auto': texts under 128 units on the twin). */
  backend?: BackendPreference | Backend;
}

/** The TokenEstimator: a character-class estimate under one profile. */
export class CharClassEstimator {
  constructor(
    readonly profile: TokenProfile,
    private readonly backend: Backend,
  ) {}

  /** The backend that answered the last call. */
  get backendName(): BackendName {
    return this.backend.name;
  }

  estimate(text: string): number {
    if (text.length === 0) return 0;
    this.backend.begin(text);
    return this.backend.estimateTokens(this.profile.costs);
  }

  /** Per-line estimates of an analysed text under this estimator's profile. */
  lines(analysis: TextAnalysis): LineTokens {
    return analysis.lineTokensFor(this.profile);
  }
}

/**
 * Below this many UTF-16 units the twin estimates faster than WebAssembly with
 * its copy-in (measured: equal at 64 units, WASM 2x at 256 and 2.5x at 1 K),
 * far lower than the line-table kernels' SMALL_TEXT_UNITS.
 */
export const ESTIMATOR_SMALL_TEXT_UNITS = 128;

/**
 * The estimators' own WebAssembly instance: estimating a fragment copies it
 * in, and on the instance TextAnalysis uses that would evict the analysed
 * text (re-copied on its next kernel). Estimators hold no text between calls,
 * so they all share this one.
 */
const estimatorWasm = lazyWasm();

export function createEstimator(options: EstimatorOptions = {}): CharClassEstimator {
  const backend =
    typeof options.backend === 'object'
      ? options.backend
      : backendFor(options.backend ?? 'auto', estimatorWasm, ESTIMATOR_SMALL_TEXT_UNITS);
  return new CharClassEstimator(tokenProfile(options.profile), backend);
}

/**
 * Milli-tokens of a short text (a marker) under a cost table, unrounded: the
 * twin's sum, which the kernel matches exactly, without a copy into
 * WebAssembly for a few dozen characters.
 */
export function textMilliTokens(text: string, costs: Int32Array): number {
  return textMilli(text, costs);
}
