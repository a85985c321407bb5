// Puts of big originals on a worker thread (put-worker.ts): a host that must
// not stall (the DSH harness's event loop) awaits the put instead of running
// its hash, UTF-8 encoding and SQLite write (about 300 ms for 11 MB). The
// promise settles only once the original is committed, so an id handed out is
// one every connection to the store can already read. Where no worker can run
// (no worker file, or it died), the put runs on this thread as before.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StoreError, StoreUnavailableError, type UnavailableReason } from './errors.js';
import type { PutReply, PutTask } from './put-worker.js';
import type { CcrStore } from './store.js';
import type { PutMeta, Stored } from './types.js';

/** Originals shorter than this are stored in place: their put costs less than the trip to the worker. */
export const OFF_THREAD_MIN_CHARS = 262_144;

/** The worker script: dist/store-worker.js beside the bundle's entries, or put-worker.ts from source (through tsx). */
function workerFile(): { filename: string; fromSource: boolean } | null {
  for (const candidate of ['./store-worker.js', '../store-worker.js', './put-worker.ts']) {
    const url = new URL(candidate, import.meta.url);
    if (url.protocol !== 'file:' || !existsSync(url)) continue;
    const filename = fileURLToPath(url);
    return { filename, fromSource: candidate.endsWith('.ts') };
  }
  return null;
}

interface Waiting {
  readonly store: CcrStore;
  readonly original: string;
  readonly meta: PutMeta;
  resolve(stored: Stored): void;
  reject(error: unknown): void;
}

function rebuilt(error: { name: string; message: string; reason?: string | undefined }): Error {
  if (error.name === 'StoreUnavailableError')
    return new StoreUnavailableError((error.reason ?? 'failed') as UnavailableReason, error.message);
  if (error.name === 'StoreError') return new StoreError(error.message);
  return Object.assign(new Error(error.message), { name: error.name });
}

export class OffThreadPuts {
  private worker: Worker | null | undefined;
  private seq = 0;
  private readonly waiting = new Map<number, Waiting>();

  /** Stores `original` in `store`: on the worker when it is big and the store can be opened there, else here. */
  put(store: CcrStore, original: string | Uint8Array, meta: PutMeta): Stored | Promise<Stored> {
    const spec = store.shareable;
    if (typeof original !== 'string' || original.length < OFF_THREAD_MIN_CHARS || spec === null)
      return store.put(original, meta);
    const worker = this.start();
    if (worker === null) return store.put(original, meta);
    const seq = ++this.seq;
    return new Promise<Stored>((resolve, reject) => {
      this.waiting.set(seq, { store, original, meta, resolve, reject });
      worker.ref();
      worker.postMessage({ seq, store: spec, original, meta } satisfies PutTask);
    });
  }

  close(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private start(): Worker | null {
    if (this.worker !== undefined) return this.worker;
    const file = workerFile();
    if (file === null) return (this.worker = null);
    // From source, tsx (a development dependency) is registered in the worker before the script is imported.
    const worker = file.fromSource
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(file.filename).href)}); })`,
          { eval: true },
        )
      : new Worker(file.filename);
    worker.unref();
    worker.on('message', (reply: PutReply) => this.settle(reply));
    // A worker that fails leaves its puts (and all later ones) to this thread: the same store, the same answer.
    const fail = () => {
      this.worker = null;
      for (const [seq, task] of this.waiting) {
        this.waiting.delete(seq);
        try {
          task.resolve(task.store.put(task.original, task.meta));
        } catch (error) {
          task.reject(error);
        }
      }
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    return (this.worker = worker);
  }

  private settle(reply: PutReply): void {
    const task = this.waiting.get(reply.seq);
    if (!task) return;
    this.waiting.delete(reply.seq);
    if (this.waiting.size === 0) this.worker?.unref();
    task.store.relay(reply.events, reply.warnings);
    if ('stored' in reply) task.resolve(reply.stored);
    else task.reject(rebuilt(reply.error));
  }
}
