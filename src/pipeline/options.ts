// Every option squeeze understands, its documented default, and validation, in
// one place. Hosts (CLI, DSH plugin) map their own configuration onto this.
import type { BackendPreference } from '../engine/index.js';
import { CONTENT_KINDS, type ContentKind, type Level } from '../types.js';

export type TokenizerProfile = 'deepseek-v3' | 'o200k';

export interface SqueezeOptions {
  /** Master switch; off means every result passes through. Default true. */
  enabled?: boolean;
  /** Kernel backend. Default 'auto' (WebAssembly where it pays off, else the twin). */
  backend?: BackendPreference;
  /** Estimator calibration. Default 'deepseek-v3'. */
  tokenizer?: TokenizerProfile;
  /** Activation: results estimated below this pass through. Default 500. */
  minTokens?: number;
  /** Processor budget. Default 4000. */
  targetTokens?: number;
  /** Final ceiling, notice included. Default 12000. */
  maxTokens?: number;
  /** Compression level, or 'auto' to pick from `contextFill` (docs/GLOSSARY.md, Level). Default 'auto'. */
  level?: Level | 'auto' | undefined;
  /**
   * How full the model's context is, as a fraction (0.85 = 85%), when the host
   * knows. Picks the level under 'auto': < 0.8 lossless, < 0.9 light,
   * < 1 aggressive, else emergency; unknown: lossless. Lossless output over
   * `targetTokens` escalates to light, light output over `maxTokens` to
   * aggressive; a level that loses a preserved item reverts to the gentler one.
   */
  contextFill?: number | undefined;
  /** Content kind, or 'auto' to sniff it from the text and tool name. Default 'auto'. */
  kind?: ContentKind | 'auto' | undefined;
  /** Name of the tool that produced the text (routing, previews, exclusions). */
  toolName?: string | undefined;
  /**
   * The shell command line that printed the text (`git diff HEAD~3`, `cd web && npm test`),
   * when a shell tool produced it: routes by its program and subcommand after the tool name.
   */
  command?: string | undefined;
  /**
   * The pattern a search tool ran (a grep tool's `pattern` argument), when the
   * host knows it: places the match inside lines too long to show whole.
   */
  pattern?: string | undefined;
  /** Tools whose results are never compressed. Default []. */
  exclude?: readonly string[];
  /** How many recent results repeated blocks are looked up in. Default 3. */
  recentResults?: number;
  /** One-line preview cut. Default 240. */
  previewMaxChars?: number;
  /** Keep the original in the store and add a retrieval notice. Default true. */
  retainOriginal?: boolean;
  /**
   * Milliseconds one result may take. Past it the pipeline starts no further
   * level: it returns the best output so far (`timedOut: true`), or the
   * original with outcome 'timed-out' when none is ready. Default 5000: a backstop
   * well above what any measured input needs (under 1 s of CPU for the
   * hostile inputs of bench/hostile.ts), so a busy machine does not turn
   * compression off.
   */
  timeBudgetMs?: number;
  /**
   * Texts of at least this many characters are compressed on a worker thread
   * by `compressAsync` (the caller's event loop keeps running). Default 32,768.
   */
  workerMinChars?: number;
  /**
   * Tokens the host appends after a compressed output (its own notice or note):
   * the ceiling holds for the output with them. A text that fits `maxTokens`
   * whole is passed through rather than cut to make that room. Default 0.
   */
  reserveTokens?: number;
}

/** Every option with a default, filled in (an `undefined` given is the default); the per-result facts stay optional. */
export type ResolvedOptions = {
  [K in Exclude<keyof SqueezeOptions, 'contextFill' | 'toolName' | 'command' | 'pattern'>]-?: Exclude<
    SqueezeOptions[K],
    undefined
  >;
} & Pick<SqueezeOptions, 'contextFill' | 'toolName' | 'command' | 'pattern'>;

export const DEFAULTS: ResolvedOptions = {
  enabled: true,
  backend: 'auto',
  tokenizer: 'deepseek-v3',
  minTokens: 500,
  targetTokens: 4000,
  maxTokens: 12000,
  level: 'auto',
  kind: 'auto',
  exclude: [],
  recentResults: 3,
  previewMaxChars: 240,
  retainOriginal: true,
  timeBudgetMs: 5000,
  workerMinChars: 32_768,
  reserveTokens: 0,
};

/** A bad option value; `key` names the option. */
export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  constructor(
    readonly key: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`squeeze option '${key}' ${message}`, options);
  }
}

const LEVELS = ['auto', 'lossless', 'light', 'aggressive', 'emergency'];
const KINDS = ['auto', ...CONTENT_KINDS];

function positiveInteger(key: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new OptionsError(key, `must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

function oneOf<T extends string>(key: string, value: unknown, allowed: readonly string[]): T {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw new OptionsError(key, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** Defaults filled in, every value checked; throws OptionsError naming the key. */
export function resolveOptions(options: SqueezeOptions = {}, base: ResolvedOptions = DEFAULTS): ResolvedOptions {
  const merged = { ...base, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  const known = new Set([...Object.keys(DEFAULTS), 'contextFill', 'toolName', 'command', 'pattern']);
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new OptionsError(key, 'is not a squeeze option');
  }
  const resolved: ResolvedOptions = {
    enabled: Boolean(merged.enabled),
    backend: oneOf('backend', merged.backend, ['auto', 'wasm', 'js']),
    tokenizer: oneOf('tokenizer', merged.tokenizer, ['deepseek-v3', 'o200k']),
    minTokens: positiveInteger('minTokens', merged.minTokens),
    targetTokens: positiveInteger('targetTokens', merged.targetTokens),
    maxTokens: positiveInteger('maxTokens', merged.maxTokens),
    level: oneOf('level', merged.level, LEVELS),
    kind: oneOf('kind', merged.kind, KINDS),
    exclude: [...merged.exclude],
    recentResults: merged.recentResults === 0 ? 0 : positiveInteger('recentResults', merged.recentResults),
    previewMaxChars: positiveInteger('previewMaxChars', merged.previewMaxChars),
    retainOriginal: Boolean(merged.retainOriginal),
    timeBudgetMs: positiveInteger('timeBudgetMs', merged.timeBudgetMs),
    workerMinChars: positiveInteger('workerMinChars', merged.workerMinChars),
    reserveTokens: merged.reserveTokens === 0 ? 0 : positiveInteger('reserveTokens', merged.reserveTokens),
    contextFill: merged.contextFill,
    toolName: merged.toolName,
    command: merged.command,
    pattern: merged.pattern,
  };
  if (resolved.minTokens > resolved.maxTokens) {
    throw new OptionsError('minTokens', `must be <= maxTokens (${resolved.maxTokens}), got ${resolved.minTokens}`);
  }
  if (resolved.targetTokens > resolved.maxTokens) {
    throw new OptionsError(
      'targetTokens',
      `must be <= maxTokens (${resolved.maxTokens}), got ${resolved.targetTokens}`,
    );
  }
  if (resolved.command !== undefined && typeof resolved.command !== 'string') {
    throw new OptionsError(
      'command',
      `must be a string (a shell command line), got ${JSON.stringify(resolved.command)}`,
    );
  }
  if (resolved.pattern !== undefined && typeof resolved.pattern !== 'string') {
    throw new OptionsError('pattern', `must be a string (a search pattern), got ${JSON.stringify(resolved.pattern)}`);
  }
  if (resolved.contextFill !== undefined && !(Number.isFinite(resolved.contextFill) && resolved.contextFill >= 0)) {
    throw new OptionsError(
      'contextFill',
      `must be a finite fraction >= 0, got ${JSON.stringify(resolved.contextFill)}`,
    );
  }
  return resolved;
}
