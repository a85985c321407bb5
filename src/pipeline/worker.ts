// The worker-thread side of compressAsync (run by piscina, see pool.ts): it
// adopts the WebAssembly module the main thread compiled, keeps one pipeline
// per option set, and compresses with the caller's options, its notice naming
// the original's id (the main thread then stores the original), deduping against the recent results
// the caller's instance remembers (sent with each task: window fingerprints,
// small typed arrays), so a result is the same on either thread.
import { workerData } from 'node:worker_threads';
import { adoptModule, type RememberedResult } from '../engine/index.js';
import { createWorkerPipeline, type WorkerPipeline } from './index.js';
import type { ResolvedOptions } from './options.js';
import { bytesId, originalId } from '../store/id.js';
import type { RetrievalWays, SpillLocation } from '../store/notice.js';
import type { Lookup, OriginalStore, Stored } from '../store/types.js';
import { textDigest } from './repeats.js';
import type { CompressResult } from './result.js';

export interface WorkerTask {
  readonly text: string;
  readonly options: ResolvedOptions;
  readonly isError: boolean;
  /** Where the host's spill store saved the original too: the notice written here names it. */
  readonly spill: SpillLocation | undefined;
  /** How the notice tells the reader to retrieve the original (the caller's instance's). */
  readonly retrieval: RetrievalWays;
  /** What the caller's instance remembers of recent results, newest first. */
  readonly remembered: readonly RememberedResult[];
}

/**
 * What crosses back: the result, its error reduced to name and message, and
 * the text's digest (textDigest: a pass over the whole text, made here rather
 * than on the caller's thread).
 */
export type WorkerResult = Omit<CompressResult, 'error'> & {
  readonly error?: { name: string; message: string };
  readonly digest: string;
};

const shared = (workerData as { wasmModule?: WebAssembly.Module } | undefined)?.wasmModule;
if (shared) adoptModule(shared);

const pipelines = new Map<string, WorkerPipeline>();

/**
 * Names an original as the stores do (SHA-256 of its UTF-8) and keeps nothing:
 * the result, notice and id included, is then the one compress() gives, and
 * the caller's thread stores the original under that id.
 */
class IdOnlyStore implements OriginalStore {
  put(original: string | Uint8Array): Stored {
    return typeof original === 'string'
      ? { id: originalId(original), size: Buffer.byteLength(original, 'utf8') }
      : { id: bytesId(original), size: original.length };
  }
  get(): Lookup {
    return { found: false, reason: 'unknown' };
  }
}

export default function compressTask(task: WorkerTask): WorkerResult {
  const key = JSON.stringify([task.options, task.retrieval]);
  let squeeze = pipelines.get(key);
  if (!squeeze) {
    squeeze = createWorkerPipeline({ ...task.options, retrieval: task.retrieval, store: new IdOnlyStore() });
    pipelines.set(key, squeeze);
  }
  const { error, ...compressed } = squeeze.compressBeside(
    task.text,
    { isError: task.isError, spill: task.spill },
    task.remembered,
  );
  const result = { ...compressed, digest: textDigest(task.text) };
  if (error === undefined) return result;
  const failure =
    error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
  return { ...result, error: failure };
}
