// The real core behind the plugin: squeeze's pipeline (createSqueeze) and the
// CCR store with its retrieval and notice. The pipeline is told not to retain
// (no store of its own): the plugin keeps the original itself, in the CCR store
// and, started before compressing so the file write overlaps it, the harness
// spill store, then appends the store's notice carrying both.
import { createSqueeze, type Squeeze } from '../pipeline/index.js';
import { createStore, retrievalNotice, retrieveAsync } from '../store/index.js';
import { squeezeOptionsOf } from './dsh-config.js';
import { expandHome } from './dsh-ledger.js';
import type { ServiceFactory } from './dsh-plugin.js';

export const coreServices: ServiceFactory = (config, options) => {
  const setup = { ...squeezeOptionsOf(config), retainOriginal: false, store: null };
  const shared = createSqueeze(setup);
  // The pipeline remembers recent results to reference repeats (seed 001
  // strategy 4): one instance per conversation, so a reference only ever
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
  const store = createStore({
    storeBudgetBytes: options.storeBudgetBytes,
    ttlSeconds: options.ttlSeconds,
    journalPath: expandHome(options.journalPath),
    onEvent: options.onEvent,
    warn: options.warn,
  });
  return {
    squeeze: {
      // Big results go to a worker thread: the harness's event loop keeps running meanwhile.
      compress: (text, { conversation, ...call }) => pipelineFor(conversation).compressAsync(text, call),
    },
    estimator: shared.estimator,
    store,
    retrieve: (request) => retrieveAsync(store, request),
    notice: (input) => retrievalNotice(input.id, input.type, input.size, input.spill),
  };
};
