// cacache, typed as far as bench/store.ts uses it (the package ships no types).
import { createRequire } from 'node:module';

export interface Cacache {
  put(cache: string, key: string, data: string | Buffer): Promise<string>;
  get(cache: string, key: string): Promise<{ data: Buffer }>;
  ls(cache: string): Promise<Record<string, unknown>>;
}

export const cacache = createRequire(import.meta.url)('cacache') as Cacache;
