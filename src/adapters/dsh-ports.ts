// What the plugin needs from squeeze's core, as one seam: the compressor, the
// estimator, the CCR store with its retrieval and notice. dsh-core.ts wires
// the real ones; nothing else in the adapter imports the pipeline or the store.
import type { CompressResult } from '../pipeline/result.js';
import type { OriginalStore } from '../store/types.js';
import type { ContentKind, Level, TokenEstimator } from '../types.js';

export interface CompressCall {
  readonly toolName: string;
  readonly kind?: ContentKind;
  readonly level?: Level;
  readonly contextFill?: number;
  /** The tool call failed (seed 002's `error` type for previews). */
  readonly isError?: boolean;
}

export interface Compressor {
  compress(text: string, call: CompressCall): CompressResult | Promise<CompressResult>;
}

/** An original by exact id: whole, a 0-based line range (clamped), or the lines matching a pattern. */
export interface RetrieveRequest {
  readonly id: string;
  readonly range?: { readonly start?: number; readonly count?: number };
  readonly grep?: string;
}

export type RetrieveResult =
  | { readonly ok: true; readonly id: string; readonly type: string; readonly size: number; readonly text: string }
  | { readonly ok: false; readonly id: string; readonly reason: string; readonly message: string };

/** Where an original can be read back: the CCR id always, the spill locator when one was saved. */
export interface NoticeInput {
  readonly id: string;
  readonly type: string;
  readonly size: number;
  readonly spill?: { readonly locator: string; readonly hint?: string };
}

/** What the store reports for the ledger. */
export type StoreEvent =
  | { readonly kind: 'evicted'; readonly id: string; readonly reason: 'budget' | 'ttl' }
  | { readonly kind: 'retrieved'; readonly id: string }
  | { readonly kind: 'miss'; readonly id: string; readonly reason: 'expired' | 'unknown' };

export interface Services {
  readonly squeeze: Compressor;
  readonly estimator: TokenEstimator;
  readonly store: OriginalStore;
  retrieve(request: RetrieveRequest): RetrieveResult;
  /** The lines appended to a compressed result: marker, how to retrieve, the spill locator. */
  notice(input: NoticeInput): string;
}

/** Store options from the plugin config, and where its events and warnings go. */
export interface ServiceOptions {
  readonly ttlSeconds: number;
  readonly storeBudgetBytes: number;
  readonly journalPath: string;
  readonly onEvent: (event: StoreEvent) => void;
  readonly warn: (message: string) => void;
}
