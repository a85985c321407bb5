// The store the CLI keeps originals in: by default the folder the DSH plugin
// uses too ($XDG_CACHE_HOME/squeeze), so `squeeze retrieve` finds what either
// stored; --store names another folder, ':memory:' or a redis:// URL.
import { lookupStore, openStoreSpec, StoreUnavailableError, type Lookup, type OriginalStore } from '../store/index.js';
import { CliError, ExitCode } from './errors.js';
import type { CliIo } from './io.js';

export { STORE_OPTION } from './store-option.js';

export type CliStore = ReturnType<typeof openStoreSpec>;

/** Opens the store --store names (or the default); StoreUnavailableError when it is unsafe or cannot open. */
export function openStore(spec: string | boolean | undefined, io: CliIo): CliStore {
  // The store's messages name themselves ("squeeze store: …").
  return openStoreSpec(typeof spec === 'string' ? spec : '', {
    env: io.env,
    warn: (message) => io.stderr(`${message}\n`),
  });
}

/** A store failure as the CLI reports it (exit 6). */
export function storeFailure(error: unknown): CliError {
  if (error instanceof StoreUnavailableError)
    return new CliError(ExitCode.storeUnavailable, error.message, { cause: error });
  throw error;
}

/**
 * The one original `id` as a synchronous store for `retrieve` (which slices
 * and greps it): looked up once here, awaited when the store is Redis.
 */
export async function lookupOnce(spec: string | boolean | undefined, id: string, io: CliIo): Promise<OriginalStore> {
  let lookup: Lookup;
  try {
    const store = openStore(spec, io);
    try {
      lookup = await store.get(id);
    } finally {
      await store.close();
    }
  } catch (error) {
    throw storeFailure(error);
  }
  return lookupStore(id, lookup);
}
