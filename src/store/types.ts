// The contract of the store that keeps originals (docs/GLOSSARY.md, Store). The
// pipeline, the CLI and the DSH plugin share it.

export interface StoredOriginal {
  /** First 24 lowercase hex characters of the SHA-256 of the original's bytes (the text's UTF-8). */
  readonly id: string;
  /** The CCR type it was stored as (terminal, json, web, ...). */
  readonly type: string;
  /** UTF-8 byte length of the text. */
  readonly size: number;
  /** The original as text: bytes that are not UTF-8 show as U+FFFD. */
  readonly text: string;
  /** The original's exact bytes, when they are not UTF-8 (`text` cannot give them back). */
  readonly bytes?: Uint8Array;
  readonly createdAt: number;
  readonly ttlAt: number;
  lastAccessed: number;
}

export type Lookup =
  | { readonly found: true; readonly entry: StoredOriginal }
  | { readonly found: false; readonly reason: 'unknown' | 'expired' };

export interface PutMeta {
  readonly type: string;
  readonly tool?: string | undefined;
}

export interface Stored {
  readonly id: string;
  readonly size: number;
}

/**
 * The synchronous store the in-process pipeline calls. `put` returns only once
 * the original is kept; when it cannot be, it throws (StoreUnavailableError),
 * never an id that will not retrieve.
 */
export interface OriginalStore {
  /**
   * Stores the text, or the exact bytes of an original that is not UTF-8
   * (idempotent for equal originals), and returns its id.
   */
  put(original: string | Uint8Array, meta: PutMeta): Stored;
  /** Exact-id lookup; refreshes the entry's LRU clock on a hit. */
  get(id: string): Lookup;
}

/**
 * A store over the network (Redis): the same contract, asynchronous. The
 * plugin and the CLI await it; the pipeline itself never sees one (see
 * docs/STORE.md, "Redis").
 */
export interface AsyncOriginalStore {
  put(original: string | Uint8Array, meta: PutMeta): Promise<Stored>;
  get(id: string): Promise<Lookup>;
  close(): Promise<void>;
}
