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

/** One worker and the puts it has not answered yet: a worker that dies hands back only its own. */
interface Lane {
  readonly worker: Worker;
  readonly waiting: Map<number, Waiting>;
}

export class OffThreadPuts {
  private lane: Lane | null | undefined;
  private seq = 0;

  /** Stores `original` in `store`: on the worker when it is big and the store can be opened there, else here. */
  put(store: CcrStore, original: string | Uint8Array, meta: PutMeta): Stored | Promise<Stored> {
    const spec = store.shareable;
    if (typeof original !== 'string' || original.length < OFF_THREAD_MIN_CHARS || spec === null)
      return store.put(original, meta);
    const lane = this.start();
    if (lane === null) return store.put(original, meta);
    const seq = ++this.seq;
    return new Promise<Stored>((resolve, reject) => {
      lane.waiting.set(seq, { store, original, meta, resolve, reject });
      lane.worker.ref();
      lane.worker.postMessage({ seq, store: spec, original, meta } satisfies PutTask);
    });
  }

  /** Stops the worker; settles once it has exited and its unanswered puts have run on this thread. A later put starts a new one. */
  async close(): Promise<void> {
    const lane = this.lane;
    this.lane = undefined;
    await lane?.worker.terminate();
  }

  private start(): Lane | null {
    if (this.lane !== undefined) return this.lane;
    const file = workerFile();
    if (file === null) return (this.lane = null);
    // From source, tsx (a development dependency) is registered in the worker before the script is imported.
    const worker = file.fromSource
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(file.filename).href)}); })`,
          { eval: true },
        )
      : new Worker(file.filename);
    const lane: Lane = { worker, waiting: new Map() };
    worker.unref();
    worker.on('message', (reply: PutReply) => this.settle(lane, reply));
    // A worker that fails leaves its puts (and all later ones) to this thread: the same store, the same answer.
    // A worker closed on purpose exits too, maybe after a new one started: it gives up only its own puts.
    const fail = () => {
      if (this.lane === lane) this.lane = null;
      for (const [seq, task] of lane.waiting) {
        lane.waiting.delete(seq);
        try {
          task.resolve(task.store.put(task.original, task.meta));
        } catch (error) {
          task.reject(error);
        }
      }
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    return (this.lane = lane);
  }

  private settle(lane: Lane, reply: PutReply): void {
    const task = lane.waiting.get(reply.seq);
    if (!task) return;
    lane.waiting.delete(reply.seq);
    if (lane.waiting.size === 0) lane.worker.unref();
    task.store.relay(reply.events, reply.warnings);
    if ('stored' in reply) task.resolve(reply.stored);
    else task.reject(rebuilt(reply.error));
  }
}
