// The worker-thread side of compressAsync (run by piscina, see pool.ts): it
// adopts the WebAssembly module the main thread compiled, keeps one pipeline
// per option set, and compresses without retaining (the main thread stores
// the original and writes the notice), deduping against the recent results
// the caller's instance remembers (sent with each task: window fingerprints,
// small typed arrays), so a result is the same on either thread.
import { workerData } from 'node:worker_threads';
import { adoptModule, type RememberedResult } from '../engine/index.js';
import { createWorkerPipeline, type WorkerPipeline } from './index.js';
import type { ResolvedOptions } from './options.js';
import { textDigest } from './repeats.js';
import type { CompressResult } from './result.js';

export interface WorkerTask {
  readonly text: string;
  readonly options: ResolvedOptions;
  readonly isError: boolean;
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

export default function compressTask(task: WorkerTask): WorkerResult {
  const options = { ...task.options, retainOriginal: false };
  const key = JSON.stringify(options);
  let squeeze = pipelines.get(key);
  if (!squeeze) {
    squeeze = createWorkerPipeline({ ...options, store: null });
    pipelines.set(key, squeeze);
  }
  const { error, ...compressed } = squeeze.compressBeside(task.text, { isError: task.isError }, task.remembered);
  const result = { ...compressed, digest: textDigest(task.text) };
  if (error === undefined) return result;
  const failure =
    error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
  return { ...result, error: failure };
}
