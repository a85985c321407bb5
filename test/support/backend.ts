// The backend a unit-test project runs on (vitest.config.ts sets it per project).
import { createBackend, TextAnalysis } from '../../src/engine/index.js';
import type { Backend, BackendName } from '../../src/engine/index.js';

export const backendName: BackendName = process.env.SQUEEZE_BACKEND === 'js' ? 'js' : 'wasm';

/** A fresh backend of the project's kind; 'wasm' fails loudly if it cannot load. */
export function testBackend(): Backend {
  return createBackend(backendName);
}

/** The analysis of `text` on a fresh backend of the project's kind (what sniffers and routing read). */
export function analysisOf(text: string): TextAnalysis {
  return new TextAnalysis(text, testBackend());
}
