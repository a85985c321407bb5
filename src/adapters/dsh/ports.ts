// What the plugin needs from squeeze's core, as one seam: the compressor, the
// estimator, the CCR store with its retrieval and notice. core.ts wires
// the real ones (tests swap in stand-ins for failure modes); the rest of the
// adapter uses only these types.
import type { CompressResult, ContentKind, Level, TokenEstimator } from '../../index.js';
import type {
  Lookup,
  PutMeta,
  RetrieveRequest,
  RetrieveResult,
  SpillLocation,
  StoreEvent,
  Stored,
} from '../../store/index.js';

export interface CompressCall {
  readonly toolName: string;
  /** The shell command line a shell tool ran (routing by program and subcommand). */
  readonly command?: string;
  /** The regex a search tool ran (DSH grep's `pattern`): places the match in lines too long to show whole. */
  readonly pattern?: string;
  readonly kind?: ContentKind;
  readonly level?: Level;
  readonly contextFill?: number;
  /** Tokens the plugin appends after a compressed text (its notice, a level note): the ceiling holds for both. */
  readonly reserveTokens?: number;
  /** The tool call failed (the `error` CCR type for previews). */
  readonly isError?: boolean;
  /**
   * The conversation the result goes to (the calling agent). Repeats are
   * referenced only against results that same model was shown.
   */
  readonly conversation?: object;
}

export interface Compressor {
  compress(text: string, call: CompressCall): CompressResult | Promise<CompressResult>;
}

/** Where an original can be read back: the CCR id always, the spill locator when one was saved. */
export interface NoticeInput {
  readonly id: string;
  readonly type: string;
  readonly size: number;
  readonly spill?: SpillLocation;
  /** The result's verdict line (`verdict: 2 of 600 tests failed`), when the output stated one. */
  readonly verdict?: string;
}

export interface Services {
  readonly squeeze: Compressor;
  readonly estimator: TokenEstimator;
  /** The CCR store: local SQLite (synchronous) or Redis (asynchronous); a put that cannot keep the original throws or rejects. */
  readonly store: {
    put(text: string, meta: PutMeta): Stored | Promise<Stored>;
    get(id: string): Lookup | Promise<Lookup>;
  };
  /**
   * An original by exact id (in any case, or inside a pasted marker): whole, a 1-based line range or a page of it, or the
   * lines matching a pattern (a long grep yields to the event loop, hence the promise).
   */
  retrieve(request: RetrieveRequest): RetrieveResult | Promise<RetrieveResult>;
  /** Releases the store (the plugin unloads). */
  close(): void | Promise<void>;
  /** The lines appended to a compressed result: marker, how to retrieve, the spill locator. */
  notice(input: NoticeInput): string;
}

/** Store options from the plugin config, and where its events and warnings go. */
export interface ServiceOptions {
  readonly ttlSeconds: number;
  readonly storeBudgetBytes: number;
  /** The `store` config value: '' (the default folder), a folder, ':memory:' or a redis:// URL. */
  readonly store: string;
  readonly onEvent: (event: StoreEvent) => void;
  readonly warn: (message: string) => void;
}
