// What the page's build puts in place of the two modules of the pipeline that
// need Node (see scripts/playground.mjs): the SQLite store (the page passes its
// own, so createStore is never reached) and the worker pool (none: compressAsync
// compresses inline, and the page calls compress).
import type { OriginalStore } from '../store/types.js';

export function createStore(): OriginalStore {
  throw new Error('no SQLite store in the browser: pass a store of your own');
}

export function workerPool(): null {
  return null;
}
