// The CCR store, its retrieval, notice and ledger: shared by the pipeline, the CLI and the DSH plugin.
export { CcrStore, createStore, DATABASE_FILE, DEFAULT_STORE_BUDGET_BYTES, DEFAULT_TTL_SECONDS } from './store.js';
export type { SharedStoreSpec, StoreEvent, StoreOptions } from './store.js';
export { OFF_THREAD_MIN_CHARS, OffThreadPuts } from './off-thread.js';
export { StoreError, StoreUnavailableError, type UnavailableReason } from './errors.js';
export { RedisStore, type RedisStoreOptions } from './redis-store.js';
export { MEMORY_STORE, openStoreSpec, type StoreSpecOptions } from './open.js';
export { defaultStoreDir } from './store-dir.js';
export { idFrom, ID_SHAPE, originalId, isOriginalId, SAMPLE_ID } from './id.js';
export { retrieve, retrieveAsync, DEFAULT_MAX_MATCHES } from './retrieve.js';
export { MAX_PATTERN_CHARS, MAX_OUTPUT_BYTES, MAX_LINE_CHARS, SEARCH_DEADLINE_MS } from './search.js';
export { lookupStore } from './one-lookup.js';
export { LATE, within } from './deadline.js';
export type { RetrieveRequest, RetrieveResult } from './retrieve.js';
export { marker, retrievalNotice } from './notice.js';
export { cliRetrieval } from './cli-retrieval.js';
export type { RetrievalWays, SpillLocation } from './notice.js';
export * as ledger from './ledger.js';
export type { AsyncOriginalStore, Lookup, OriginalStore, PutMeta, Stored, StoredOriginal } from './types.js';
