// squeeze's public API.
export { createBackend, EngineError, TextAnalysis } from './engine/index.js';
export type { Backend, BackendName, BackendPreference, LineGroups, LineTable } from './engine/index.js';
