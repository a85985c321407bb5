// squeeze's public API: compress tool outputs, keep the originals, get them back.
export {
  compress,
  createSqueeze,
  DEFAULTS,
  OptionsError,
  resolveOptions,
  type CallOptions,
  type CompressResult,
  type Outcome,
  type ResolvedOptions,
  type Squeeze,
  type SqueezeOptions,
  type SqueezeSetup,
} from './pipeline/index.js';
export { ccrType, preview, type CcrType } from './pipeline/ccr.js';
export { gentler, gentlest, LEVELS } from './pipeline/levels.js';
export { operands, producingCommand, type ProducingCommand } from './pipeline/command.js';
export { levelNotKeptText } from './pipeline/level-note.js';
export { MAX_VERDICT_CHARS, readVerdict } from './pipeline/verdict/extract.js';
export { notShownNote } from './pipeline/verdict/gate.js';
export {
  createStore,
  defaultStoreDir,
  openStoreSpec,
  RedisStore,
  retrieve,
  retrievalNotice,
  marker,
  StoreError,
  StoreUnavailableError,
  cliRetrieval,
  idFrom,
  type RetrievalWays,
  type RetrieveRequest,
  type RetrieveResult,
  type StoreOptions,
} from './store/index.js';
export type { AsyncOriginalStore, Lookup, OriginalStore, StoredOriginal } from './store/types.js';
export { createBackend, createEstimator, EngineError, TextAnalysis } from './engine/index.js';
export type { Backend, BackendName, BackendPreference, TokenProfileName } from './engine/index.js';
export type {
  ContentKind,
  Level,
  Omitted,
  Processor,
  ProcessorInput,
  ProcessorOutput,
  TokenEstimator,
} from './types.js';
export { isSqueezeLine, omissionsOf, parseSqueezeLine, type Omission, type SqueezeLine } from './processors/markers.js';
