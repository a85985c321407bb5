// The plugin's configuration: every key the pipeline and the gate take, with their
// defaults, as one Schemastery schema. Cordis validates it before `apply`; the
// budget rules (0 < min <= max, 0 < target <= max) are squeeze's own
// `resolveOptions`, so a bad value fails at load with a message naming the key.
import Schema from '@deepseek-ai/schemastery';
import { type CcrType, DEFAULTS, type Level, OptionsError, resolveOptions, type SqueezeOptions } from '../../index.js';
import { DEFAULT_STORE_BUDGET_BYTES, DEFAULT_TTL_SECONDS } from '../../store/index.js';

/** The tools whose results the gate looks at by default. */
export const DEFAULT_TARGETS = ['bash', 'grep', 'search', 'glob', 'list', 'read', 'web_fetch', 'web_search'];

/** Tools never compressed (writers, delegation, questions, retrieval itself). */
export const DEFAULT_EXEMPT = ['write', 'edit', 'raw-write', 'subagent', 'ask_user_question', 'ccr_retrieve'];

/** The gate's per-type factors on `thresholdBytes`. */
export const DEFAULT_MULTIPLIERS: Record<CcrType, number> = {
  terminal: 1,
  error: 8,
  grep: 2,
  paths: 2,
  file: 1,
  json: 1,
  web: 2,
  default: 1,
};

/** The shipped spill-policy's maxInlineBytes: a ccr_retrieve page stays under it, so no retrieval is cut. */
export const RETRIEVE_PAGE_BYTES = 50_000;

/** The smallest page: below it a page holds a line or two plus its page line, and an original takes thousands of calls. */
export const MIN_RETRIEVE_PAGE_BYTES = 1024;

const multiplier = (value: number) => Schema.number().min(0).default(value);

const LEVELS: readonly (Level | 'auto')[] = ['auto', 'lossless', 'light', 'aggressive', 'emergency'];

const Fields = Schema.object({
  // the pipeline's options
  enabled: Schema.boolean().default(DEFAULTS.enabled).description('Master switch: off means no result is compressed.'),
  exclude: Schema.array(String)
    .default([...DEFAULTS.exclude])
    .description('Tools whose results are never compressed.'),
  minTokens: Schema.natural().default(DEFAULTS.minTokens).description('Results estimated below this pass through.'),
  targetTokens: Schema.natural().default(DEFAULTS.targetTokens).description('Token budget the processors aim for.'),
  maxTokens: Schema.natural().default(DEFAULTS.maxTokens).description('Final token ceiling of a compressed result.'),
  retainOriginal: Schema.boolean()
    .default(DEFAULTS.retainOriginal)
    .description('Keep every original retrievable (spill store and ccr_retrieve).'),
  level: Schema.union(LEVELS)
    .default(DEFAULTS.level)
    .description("Compression level, or 'auto' to follow the context fill."),
  contextWindowTokens: Schema.natural()
    .min(1)
    .default(128000)
    .description('Context window used when the host reports none.'),
  // the gate, the store and the ledger
  log: Schema.boolean().default(true).description('Write the ledger lines to the logger and logFile.'),
  logFile: Schema.string().default('~/.dsh/playform/hook-dsh-ccr.log').description("Ledger file ('' for none)."),
  targets: Schema.array(String)
    .default([...DEFAULT_TARGETS])
    .description('Allow-list of tools the gate looks at.'),
  exempt: Schema.array(String)
    .default([...DEFAULT_EXEMPT])
    .description('Tools that always pass through.'),
  thresholdBytes: Schema.natural().default(1024).description('Gate size, times the per-type multiplier.'),
  inlineThresholdBytes: Schema.natural().default(1024).description('Results at or below this never reach the gate.'),
  autoExpand: Schema.boolean()
    .default(false)
    .description('Store results under autoExpandLimitBytes but pass them in full.'),
  autoExpandLimitBytes: Schema.natural().default(4096),
  compressFailures: Schema.boolean().default(true).description('Gate failed results too (type error, x8).'),
  multipliers: Schema.object({
    terminal: multiplier(DEFAULT_MULTIPLIERS.terminal),
    error: multiplier(DEFAULT_MULTIPLIERS.error),
    grep: multiplier(DEFAULT_MULTIPLIERS.grep),
    paths: multiplier(DEFAULT_MULTIPLIERS.paths),
    file: multiplier(DEFAULT_MULTIPLIERS.file),
    json: multiplier(DEFAULT_MULTIPLIERS.json),
    web: multiplier(DEFAULT_MULTIPLIERS.web),
    default: multiplier(DEFAULT_MULTIPLIERS.default),
  }).default({}),
  fullOutputMaxBytes: Schema.natural()
    .default(16 * 1024 * 1024)
    .description(
      "Compress the full output of a bash call the harness cut to its tail, from the harness's own file up to this size (0: never).",
    ),
  previewMaxChars: Schema.natural().min(1).default(DEFAULTS.previewMaxChars),
  ttlSeconds: Schema.natural().min(1).default(DEFAULT_TTL_SECONDS),
  storeBudgetBytes: Schema.natural().min(1).default(DEFAULT_STORE_BUDGET_BYTES),
  store: Schema.string()
    .default('')
    .description(
      "Where originals are kept: '' for $XDG_CACHE_HOME/squeeze (shared with the squeeze CLI), a folder, " +
        "':memory:' for this process only, or redis://host:port to share them across hosts.",
    ),
  // Retrieval: pages under the harness's inline cap, and what a retrieval teaches the compressor.
  retrievePageBytes: Schema.natural()
    .default(RETRIEVE_PAGE_BYTES)
    .description(
      "Largest ccr_retrieve result (or the loaded spill-policy's maxInlineBytes when smaller), at least 1,024; a bigger original comes in pages of whole lines (0: no paging).",
    ),
  backOffAfterRetrieval: Schema.boolean()
    .default(true)
    .description(
      'After ccr_retrieve of a result, compress the same tool (bash: the same command) one level gentler for the rest of the session.',
    ),
  // The context engine (context-engine.ts): history rewrites through the session surface.
  contextEngine: Schema.boolean()
    .default(false)
    .description('Measure the context fill and replace old tool results in the history.'),
  contextEngineThresholdPct: Schema.number()
    .min(0)
    .max(100)
    .default(20)
    .description('Fill (percent of the window) at which a batch of old results is replaced.'),
  protectFirstTurns: Schema.natural().default(0).description('Results of the first N turns are never replaced.'),
  protectLastTurns: Schema.natural()
    .default(0)
    .description('Results of the last N turns (the current one included) are never replaced.'),
  protectRecentResults: Schema.natural()
    .default(1)
    .description('The last N tool results are never replaced, whatever their turn (1: each is seen whole once).'),
  contextEngineBatchPct: Schema.number()
    .min(0)
    .max(100)
    .default(25)
    .description(
      'A rewrite (one prefix-cache break) happens only when it frees at least this share of the window, in percent.',
    ),
  contextEngineKeepTools: Schema.array(String)
    .default([])
    .description('Tools whose results the engine never replaces (ccr_retrieve never is).'),
});

export type PluginConfig = ReturnType<typeof Fields>;

/** The part of the plugin config the squeeze pipeline itself understands. */
export function squeezeOptionsOf(config: PluginConfig): SqueezeOptions {
  return {
    enabled: config.enabled,
    exclude: config.exclude,
    minTokens: config.minTokens,
    targetTokens: config.targetTokens,
    maxTokens: config.maxTokens,
    level: config.level as Level | 'auto',
    previewMaxChars: config.previewMaxChars,
    retainOriginal: config.retainOriginal,
  };
}

// The callback sees the validated value, defaults filled (Schemastery's typing says input).
export const Config = Schema.transform(Fields.default({}), (value) => {
  const config = value as PluginConfig;
  resolveOptions(squeezeOptionsOf(config));
  if (config.retrievePageBytes > 0 && config.retrievePageBytes < MIN_RETRIEVE_PAGE_BYTES) {
    throw new OptionsError(
      'retrievePageBytes',
      `must be 0 (no paging) or at least 1,024 bytes, got ${config.retrievePageBytes}`,
    );
  }
  return config;
});

/** Cordis hands `apply` the raw value when none was given; this fills the defaults then. */
export function parseConfig(raw: unknown): PluginConfig {
  return Config((raw ?? {}) as Partial<PluginConfig>) as PluginConfig;
}
