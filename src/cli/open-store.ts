// The store the CLI keeps originals in: a journal in the store directory, so
// `squeeze retrieve` in a later shell finds what `squeeze compress` stored.
import { join } from 'node:path';
import { createStore, type CcrStore } from '../store/index.js';
import { defaultStoreDir, JOURNAL_FILE, type CliIo } from './io.js';

export const STORE_OPTION = { store: { type: 'string' } } as const;

export function openStore(dir: string | boolean | undefined, io: CliIo): CcrStore {
  const storeDir = typeof dir === 'string' && dir !== '' ? dir : defaultStoreDir(io.env);
  return createStore({ journalPath: join(storeDir, JOURNAL_FILE), warn: (message) => io.stderr(`squeeze: ${message}\n`) });
}
