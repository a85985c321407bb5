// The CCR store, its retrieval, notice and ledger: shared by the pipeline, the CLI and the DSH plugin.
export { CcrStore, createStore, StoreError, DEFAULT_STORE_BUDGET_BYTES, DEFAULT_TTL_SECONDS } from './store.js';
export type { StoreEvent, StoreOptions } from './store.js';
export { originalId, isOriginalId } from './id.js';
export { retrieve, retrieveAsync, DEFAULT_MAX_MATCHES } from './retrieve.js';
export { MAX_PATTERN_CHARS, MAX_OUTPUT_BYTES, MAX_LINE_CHARS, SEARCH_DEADLINE_MS } from './search.js';
export type { RetrieveRequest, RetrieveResult } from './retrieve.js';
export { marker, retrievalNotice } from './notice.js';
export type { SpillLocation } from './notice.js';
export * as ledger from './ledger.js';
export type { Lookup, OriginalStore, StoredOriginal } from './types.js';
