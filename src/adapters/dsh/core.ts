// The real core behind the plugin: squeeze's pipeline (createSqueeze) and the
// CCR store with its retrieval and notice. The pipeline is told not to retain
// (no store of its own): the plugin keeps the original itself, in the CCR store
// and, started before compressing so the file write overlaps it, the harness
// spill store, then appends the store's notice carrying both. The store is
// the CLI's by default ($XDG_CACHE_HOME/squeeze), so `squeeze retrieve ID` in
// a shell finds what the plugin kept; the notice names that command only when
// it can (not for a store in this process's memory).
import { createSqueeze, type Squeeze } from '../../index.js';
import {
  CcrStore,
  cliRetrieval,
  OffThreadPuts,
  idFrom,
  lookupStore,
  openStoreSpec,
  retrievalNotice,
  retrieveAsync,
  StoreUnavailableError,
  type Lookup,
  type RetrievalWays,
} from '../../store/index.js';
import { RETRIEVE_TOOL } from './gate.js';
import { squeezeOptionsOf } from './config.js';
import { expandHome } from './ledger.js';
import type { ServiceFactory } from './plugin.js';
import type { Services } from './ports.js';

export const coreServices: ServiceFactory = (config, options) => {
  const setup = { ...squeezeOptionsOf(config), retainOriginal: false, store: null };
  const shared = createSqueeze(setup);
  // The pipeline remembers recent results to reference repeats (docs/GLOSSARY.md,
  // Repeats of recent results): one instance per conversation, so a reference only ever
  // points at text that conversation's model was shown.
  const perConversation = new WeakMap<object, Squeeze>();
  const pipelineFor = (conversation: object | undefined): Squeeze => {
    if (conversation === undefined) return shared;
    let pipeline = perConversation.get(conversation);
    if (pipeline === undefined) {
      pipeline = createSqueeze({ ...setup, estimator: shared.estimator });
      perConversation.set(conversation, pipeline);
    }
    return pipeline;
  };
  // Opened at the first original stored or read, not when the plugin loads: a
  // session that never compresses never loads SQLite or opens (creates) its file.
  let opened: ReturnType<typeof openOrExplain> | undefined;
  const open = () => (opened ??= openOrExplain(options));
  // A big original is stored on a worker thread (its hash and write would stall the harness's event loop);
  // the put settles once it is committed, so the id it gives retrieves at once.
  const offThread = new OffThreadPuts();
  const store: Services['store'] = {
    put: (text, meta) => {
      const target = open();
      return target instanceof CcrStore ? offThread.put(target, text, meta) : target.put(text, meta);
    },
    get: (id) => open().get(id),
  };
  const ways = retrievalWays(expandHome(options.store));
  return {
    squeeze: {
      // Big results go to a worker thread: the harness's event loop keeps running meanwhile.
      compress: (text, { conversation, ...call }) => pipelineFor(conversation).compressAsync(text, call),
    },
    estimator: shared.estimator,
    store,
    retrieve: async (request) => {
      // The id in any case, or inside a pasted marker; retrieve itself refuses input that names none.
      const id = idFrom(request.id);
      const lookup: Lookup = id === undefined ? { found: false, reason: 'unknown' } : await store.get(id);
      return retrieveAsync(lookupStore(id ?? request.id, lookup), request);
    },
    // The worker's unanswered puts run on this thread as it exits: the store closes after them.
    close: async () => {
      await offThread.close();
      await opened?.close();
    },
    notice: (input) => retrievalNotice(input.id, input.type, input.size, input.spill, ways, input.verdict),
  };
};

/**
 * The ways back the notice names: ccr_retrieve always; `squeeze retrieve` when
 * a shell's CLI can open the same store (see cliRetrieval).
 */
export function retrievalWays(spec: string): RetrievalWays {
  const cli = cliRetrieval(spec);
  return { tool: RETRIEVE_TOOL, ...(cli === undefined ? {} : { cli }) };
}

/**
 * The configured store; when it cannot open (an unsafe or unwritable folder)
 * one that refuses every put and read with the reason, warned once (at the
 * first use): results then pass through whole, the spill store still saves,
 * nothing claims an id.
 */
function openOrExplain(options: Parameters<typeof coreServices>[1]) {
  const storeOptions = {
    storeBudgetBytes: options.storeBudgetBytes,
    ttlSeconds: options.ttlSeconds,
    onEvent: options.onEvent,
    warn: options.warn,
  };
  try {
    return openStoreSpec(expandHome(options.store), storeOptions);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    options.warn(`squeeze: ${error.message}; originals cannot be kept, so results pass through uncompressed`);
    const refuse = (): never => {
      throw error;
    };
    return { put: refuse, get: refuse, close: () => {} };
  }
}
