// The host driver: picks a backend and runs kernels on one copy of a text.
import { AutoBackend } from './auto.js';
import { EngineError } from './errors.js';
import { JsBackend } from './twin/backend.js';
import type { Backend, BackendPreference } from './types.js';
import { WasmBackend } from './wasm/backend.js';
import { instantiate } from './wasm/runtime.js';

export type * from './types.js';
export { EngineError } from './errors.js';
export { adoptModule, compiledModule } from './wasm/runtime.js';
export { TextAnalysis } from './analysis.js';
// --- templates and repetition ---
export { DEFAULT_BLOCK_LINES } from './analysis.js';
export { RecentBlocks, type RecentBlocksOptions, type SeenBlock } from './recent.js';
export { templateText, volatileFields } from './twin/templates.js';
// --- end templates and repetition ---
export {
  CharClassEstimator, createEstimator, DEFAULT_TOKEN_PROFILE, tokenProfile,
  type EstimatorOptions, type TokenProfile, type TokenProfileName,
} from './tokens.js';
export { Severity, LineFlag, SEVERITY_NAMES, SEVERITY_COUNT, SEVERITY_MASK, EVIDENCE_FLAGS, severityOf } from './flags.js';

let wasmLoad: { backend: WasmBackend | null; error: unknown } | null = null;

function loadWasm(): { backend: WasmBackend | null; error: unknown } {
  if (!wasmLoad) {
    try {
      wasmLoad = { backend: new WasmBackend(instantiate()), error: null };
    } catch (error) {
      wasmLoad = { backend: null, error };
    }
  }
  return wasmLoad;
}

/**
 * A backend for the preference: 'wasm' throws EngineError (with the cause)
 * where WebAssembly cannot run; 'auto' falls back to the twin silently.
 * Each call returns a fresh backend (backends hold one text at a time).
 */
export function createBackend(preference: BackendPreference = 'auto'): Backend {
  if (preference === 'js') return new JsBackend();
  if (preference === 'auto') return new AutoBackend(() => loadWasm().backend, new JsBackend());
  const { backend, error } = loadWasm();
  if (!backend) throw new EngineError('the WebAssembly backend is unavailable', { cause: error });
  return backend;
}
