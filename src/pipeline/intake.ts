// What every result starts with, before any processor runs: whether the
// options let the text in at all, and its size in bytes and tokens. Kept apart
// from the pipeline (the engine and the options, no processor), so that a
// small CLI call that passes through loads only this (the cold start).
import { CharClassEstimator, createBackend, TextAnalysis } from '../engine/index.js';
import { utf8Bytes } from '../text/strings.js';
import type { ContentKind, Level, TokenEstimator } from '../types.js';
import { hasLongSegment } from './long-lines.js';
import type { ResolvedOptions } from './options.js';
import type { CompressResult, Outcome } from './result.js';

export type Estimator = TokenEstimator & { readonly backendName?: CompressResult['backend'] };

/** A text's measure on the way in. */
export interface Intake {
  readonly bytesIn: number;
  readonly tokensIn: number;
  /**
   * The text analysed whole, or null when it may hold over-long lines (a
   * line-shaped processor sees those as one marker line each: long-lines.ts).
   */
  readonly whole: TextAnalysis | null;
  readonly mayBeLong: boolean;
}

/**
 * Per-line estimates sum to the whole-text estimate: computing them once
 * serves both the activation check and the processors' budgets. A text that
 * may hold over-long lines is measured whole.
 */
export function measureIn(text: string, options: ResolvedOptions, estimator: Estimator): Intake {
  const mayBeLong = hasLongSegment(text);
  const whole = mayBeLong ? null : new TextAnalysis(text, createBackend(options.backend));
  const tokensIn =
    whole && estimator instanceof CharClassEstimator ? estimator.lines(whole).tokens : estimator.estimate(text);
  return { bytesIn: utf8Bytes(text), tokensIn, whole, mayBeLong };
}

/** The text as it came, as a result. */
export function unchanged(
  text: string,
  outcome: Outcome,
  facts: {
    kind: ContentKind;
    level: Level;
    tokensIn: number;
    bytesIn: number;
    backend: CompressResult['backend'];
    ms: number;
    error?: unknown;
  },
): CompressResult {
  const { error, ...rest } = facts;
  return {
    output: text,
    outcome,
    kind: rest.kind,
    level: rest.level,
    tokensIn: rest.tokensIn,
    tokensOut: rest.tokensIn,
    bytesIn: rest.bytesIn,
    bytesOut: rest.bytesIn,
    omitted: {},
    omissions: [],
    id: null,
    backend: rest.backend,
    ms: rest.ms,
    ...(error === undefined ? {} : { error }),
  };
}

/** Disabled, or a tool the options exclude: the outcome that lets the text through untouched, else null. */
export function refused(options: ResolvedOptions): 'disabled' | 'excluded' | null {
  if (!options.enabled) return 'disabled';
  if (options.toolName !== undefined && options.exclude.includes(options.toolName)) return 'excluded';
  return null;
}

/**
 * The result of a text that passes through before any processor (disabled,
 * excluded, below minTokens), for an instance that remembers no earlier
 * result (a remembered one may turn even a small text into a reference); null
 * when the text goes on to be compressed. What the pipeline returns for it, byte for byte.
 */
export function passedBeforeRouting(
  text: string,
  options: ResolvedOptions,
  estimator: Estimator,
  now: () => number,
): CompressResult | null {
  const started = now();
  const base = { kind: 'text', level: 'lossless' } as const;
  const no = refused(options);
  if (no !== null) {
    const facts = { ...base, tokensIn: 0, bytesIn: utf8Bytes(text) };
    return unchanged(text, no, { ...facts, backend: estimator.backendName ?? 'js', ms: now() - started });
  }
  const { bytesIn, tokensIn } = measureIn(text, options, estimator);
  if (tokensIn >= options.minTokens) return null;
  const facts = { ...base, tokensIn, bytesIn, backend: estimator.backendName ?? 'js' };
  return unchanged(text, 'below-min-tokens', { ...facts, ms: now() - started });
}
