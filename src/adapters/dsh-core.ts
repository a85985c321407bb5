// The real core behind the plugin: squeeze's pipeline (createSqueeze) and the
// CCR store with its retrieval and notice. The pipeline is told not to retain
// (no store of its own): the plugin keeps the original itself, in the CCR store
// and, started before compressing so the file write overlaps it, the harness
// spill store, then appends the store's notice carrying both.
import { createSqueeze } from '../pipeline/index.js';
import { createStore, retrievalNotice, retrieve } from '../store/index.js';
import { squeezeOptionsOf } from './dsh-config.js';
import { expandHome } from './dsh-ledger.js';
import type { ServiceFactory } from './dsh-plugin.js';

export const coreServices: ServiceFactory = (config, options) => {
  const squeeze = createSqueeze({ ...squeezeOptionsOf(config), retainOriginal: false, store: null });
  const store = createStore({
    storeBudgetBytes: options.storeBudgetBytes,
    ttlSeconds: options.ttlSeconds,
    journalPath: expandHome(options.journalPath),
    onEvent: options.onEvent,
    warn: options.warn,
  });
  return {
    squeeze: { compress: (text, call) => squeeze.compress(text, call) },
    estimator: squeeze.estimator,
    store,
    retrieve: (request) => retrieve(store, request),
    notice: (input) => retrievalNotice(input.id, input.type, input.size, input.spill),
  };
};
