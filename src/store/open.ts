// One way to name a store, shared by the CLI's --store and the plugin's
// `store`: '' for the default folder ($XDG_CACHE_HOME/squeeze), ':memory:' for
// this process only, `redis://…` (or `rediss://…`) for a Redis that many hosts
// share, anything else a folder.
import { RedisStore } from './redis-store.js';
import { createStore, type CcrStore, type StoreOptions } from './store.js';
import { defaultStoreDir } from './store-dir.js';

export const MEMORY_STORE = ':memory:';

export type StoreSpecOptions = Omit<StoreOptions, 'dir'> & {
  readonly env?: Readonly<Record<string, string | undefined>>;
};

/** The store `spec` names. Throws StoreUnavailableError when a local store is unsafe or cannot open (Redis connects on first use). */
export function openStoreSpec(spec: string, options: StoreSpecOptions = {}): CcrStore | RedisStore {
  const { env, ...storeOptions } = options;
  if (/^rediss?:\/\//i.test(spec)) {
    const { now: _now, ...redisOptions } = storeOptions;
    return new RedisStore({ url: spec, ...redisOptions });
  }
  if (spec === MEMORY_STORE) return createStore(storeOptions);
  return createStore({ ...storeOptions, dir: spec === '' ? defaultStoreDir(env) : spec });
}
