// Whether a reader's shell can get an original back with `squeeze retrieve`:
// it can when its CLI opens the same store. Kept apart from the notice, which
// the pipeline (and so a browser bundle) loads without the stores.
import { resolve } from 'node:path';
import type { RetrievalWays } from './notice.js';
import { MEMORY_STORE } from './open.js';

/**
 * How `squeeze retrieve` in a shell reaches the store `spec` names (the
 * CLI's --store or the plugin's `store`), or undefined when it cannot: a
 * store in one process's memory, or a Redis URL with credentials (never
 * written into a transcript). A folder is named absolutely: the reader's
 * working directory may differ.
 */
export function cliRetrieval(spec: string): RetrievalWays['cli'] {
  if (spec === '') return {};
  if (spec === MEMORY_STORE || hasControlCharacter(spec)) return undefined;
  if (!/^rediss?:\/\//i.test(spec)) return { store: resolve(spec) };
  try {
    const url = new URL(spec);
    return url.username === '' && url.password === '' ? { store: spec } : undefined;
  } catch {
    return undefined;
  }
}

/** A line break or other control character: it would break the notice's one line. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
