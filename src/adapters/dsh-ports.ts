// What the plugin needs from squeeze's core, as one seam: the compressor, the
// estimator, the CCR store and its retrieval/notice helpers. dsh-core.ts wires
// the real ones; nothing else in the adapter imports the pipeline or the store.
import type { CompressResult } from '../pipeline/result.js';
import type { OriginalStore } from '../store/types.js';
import type { ContentKind, Level, TokenEstimator } from '../types.js';

export interface CompressCall {
  readonly toolName: string;
  readonly kind?: ContentKind;
  readonly level?: Level;
  readonly contextFill?: number;
}

export interface Compressor {
  compress(text: string, call: CompressCall): CompressResult | Promise<CompressResult>;
}

export interface RetrieveQuery {
  /** 0-based line slice; out-of-range bounds clamp. */
  readonly range?: { readonly start: number; readonly count: number };
  /** Only the lines matching this pattern (a regular expression, else a literal). */
  readonly grep?: string;
}

/** Where an original can be read back: the CCR id always, the spill locator when one was saved. */
export interface Retention {
  readonly id: string;
  readonly type: string;
  readonly size: number;
  readonly locator?: string;
  readonly retrievalHint?: string;
}

export interface Services {
  readonly squeeze: Compressor;
  readonly estimator: TokenEstimator;
  readonly store: OriginalStore;
  /** The original (or the part the query selects), verbatim. */
  retrieve(text: string, query: RetrieveQuery): string;
  /** The lines appended to a compressed result: marker, locator, how to retrieve. */
  notice(retention: Retention): string;
}

/** Store options from the plugin config, and the ledger hook for evictions. */
export interface ServiceOptions {
  readonly ttlSeconds: number;
  readonly storeBudgetBytes: number;
  readonly journalPath: string;
  readonly onEvict: (id: string, reason: 'budget' | 'ttl') => void;
}
