// The one WebAssembly loader, and the backend a preference names. The module
// is compiled once per process (wasm/runtime.ts); each `lazyWasm()` slot holds
// its own instance, made on first use, or the reason it could not be made.
import { AutoBackend } from './auto.js';
import { EngineError } from './errors.js';
import { JsBackend } from './twin/backend.js';
import type { Backend, BackendPreference } from './types.js';
import { WasmBackend } from './wasm/backend.js';
import { instantiate } from './wasm/runtime.js';

export interface WasmLoad {
  readonly backend: WasmBackend | null;
  readonly error: unknown;
}

/** A WebAssembly instance loaded on the first call; later calls return the same one (or the same failure). */
export function lazyWasm(): () => WasmLoad {
  let load: WasmLoad | null = null;
  return () => {
    if (!load) {
      try {
        load = { backend: new WasmBackend(instantiate()), error: null };
      } catch (error) {
        load = { backend: null, error };
      }
    }
    return load;
  };
}

/**
 * A backend for the preference over one WebAssembly slot: 'wasm' throws
 * EngineError (with the cause) where WebAssembly cannot run; 'auto' falls back
 * to the twin silently and sends texts under `smallTextUnits` to it.
 */
export function backendFor(preference: BackendPreference, wasm: () => WasmLoad, smallTextUnits?: number): Backend {
  if (preference === 'js') return new JsBackend();
  if (preference === 'auto') return new AutoBackend(() => wasm().backend, new JsBackend(), smallTextUnits);
  const { backend, error } = wasm();
  if (!backend) throw new EngineError('the WebAssembly backend is unavailable', { cause: error });
  return backend;
}
