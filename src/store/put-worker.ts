// The thread big originals are stored on (off-thread.ts): its own connection
// to the same SQLite file (WAL lets connections write one file in turn), so
// hashing, encoding and writing an original of megabytes stalls no host's
// event loop. One store per spec, opened on first use. Replies carry the id
// and size, or the error reduced to what the caller rebuilds it from.
import { parentPort } from 'node:worker_threads';
import { CcrStore, type SharedStoreSpec, type StoreEvent } from './store.js';
import type { PutMeta, Stored } from './types.js';

export interface PutTask {
  readonly seq: number;
  readonly store: SharedStoreSpec;
  readonly original: string;
  readonly meta: PutMeta;
}

export type PutReply =
  | { readonly seq: number; readonly stored: Stored; readonly events: StoreEvent[]; readonly warnings: string[] }
  | {
      readonly seq: number;
      readonly error: { readonly name: string; readonly message: string; readonly reason?: string | undefined };
      readonly events: StoreEvent[];
      readonly warnings: string[];
    };

const stores = new Map<string, CcrStore>();
/** What the current task's store did on its own: relayed to the caller's store with the reply. */
let events: StoreEvent[] = [];
let warnings: string[] = [];

function storeFor(spec: SharedStoreSpec): CcrStore {
  const key = JSON.stringify(spec);
  let store = stores.get(key);
  if (!store) {
    store = new CcrStore({
      ...spec,
      onEvent: (event) => events.push(event),
      warn: (message) => warnings.push(message),
    });
    stores.set(key, store);
  }
  return store;
}

parentPort?.on('message', (task: PutTask) => {
  events = [];
  warnings = [];
  let reply: PutReply;
  try {
    reply = { seq: task.seq, stored: storeFor(task.store).put(task.original, task.meta), events, warnings };
  } catch (error) {
    const { name, message, reason } = error as Error & { reason?: string };
    reply = { seq: task.seq, error: { name: String(name), message: String(message), reason }, events, warnings };
  }
  parentPort!.postMessage(reply);
});
