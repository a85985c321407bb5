// The host driver: picks a backend and runs kernels on one copy of a text.
import { backendFor, lazyWasm } from './load.js';
import type { Backend, BackendPreference } from './types.js';

export type * from './types.js';
export { EngineError } from './errors.js';
export { adoptModule, compiledModule } from './wasm/runtime.js';
export { TextAnalysis } from './analysis.js';
export { DEFAULT_BLOCK_LINES } from './analysis.js';
export { Anomaly, type LineAnomalies, shapesRepeat } from './anomaly.js';
export {
  type Cell,
  type CellNumber,
  Column,
  MIN_ROWS,
  medianDeviation,
  rareCategories,
  rareCells,
  rareLimit,
} from './fields.js';
export { middleValue } from './median.js';
export { countRuns, lowerBound } from './sequences.js';
export { RecentBlocks, type RecentBlocksOptions, type RememberedResult, type SeenBlock } from './recent.js';
export { templateText, volatileFields } from './twin/templates.js';
export { CharClassEstimator, createEstimator, textMilliTokens, type EstimatorOptions } from './estimator.js';
export { COST } from './contract.js';
export { DEFAULT_TOKEN_PROFILE, tokenProfile, type TokenProfile, type TokenProfileName } from './token-profiles.js';
export {
  Severity,
  LineFlag,
  SEVERITY_NAMES,
  SEVERITY_COUNT,
  SEVERITY_MASK,
  EVIDENCE_FLAGS,
  severityOf,
} from './flags.js';

/** The instance every TextAnalysis shares (the estimators have their own: estimator.ts). */
const analysisWasm = lazyWasm();

/**
 * A backend for the preference: 'wasm' throws EngineError (with the cause)
 * where WebAssembly cannot run; 'auto' falls back to the twin silently.
 * Each call returns a fresh backend (backends hold one text at a time).
 */
export function createBackend(preference: BackendPreference = 'auto'): Backend {
  return backendFor(preference, analysisWasm);
}
