// One lookup, already made (perhaps awaited from Redis), as the synchronous
// store `retrieve` reads: it slices and greps the original without knowing
// where it came from.
import type { Lookup, OriginalStore } from './types.js';

export function lookupStore(id: string, lookup: Lookup): OriginalStore {
  return {
    get: (wanted) => (wanted === id ? lookup : { found: false, reason: 'unknown' }),
    put: () => {
      throw new Error('a retrieval view never stores');
    },
  };
}
