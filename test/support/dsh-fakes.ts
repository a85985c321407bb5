// Small, honest stand-ins for squeeze's core, for adapter tests that must not
// depend on how well the pipeline compresses: a head/tail cut with an exact
// omission count, a Map store keyed like the real one, line-range/grep reads.
import { createHash } from 'node:crypto';
import type { ServiceFactory } from '../../src/adapters/dsh/plugin.js';
import type { Services } from '../../src/adapters/dsh/ports.js';
import type { CompressResult } from '../../src/pipeline/result.js';
import type { Lookup, OriginalStore, StoredOriginal } from '../../src/store/types.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export function headTail(text: string, keep = 10): CompressResult {
  const lines = text.split('\n');
  const cut = lines.length > 2 * keep;
  const output = cut
    ? [
        ...lines.slice(0, keep),
        `[… lines ${keep + 1}–${lines.length - keep} (${lines.length - 2 * keep}) omitted …]`,
        ...lines.slice(-keep),
      ].join('\n')
    : text;
  return {
    output,
    outcome: cut ? 'compressed' : 'not-smaller',
    kind: 'log',
    level: 'lossless',
    tokensIn: Math.ceil(text.length / 3),
    tokensOut: Math.ceil(output.length / 3),
    bytesIn: bytes(text),
    bytesOut: bytes(output),
    omitted: cut ? { lines: lines.length - 2 * keep } : {},
    omissions: cut ? [{ start: keep + 1, count: lines.length - 2 * keep }] : [],
    id: null,
    backend: 'js',
    ms: 0,
  };
}

export function fakeServices(overrides: Partial<Services> = {}): ServiceFactory {
  return (_config, options) => {
    const entries = new Map<string, StoredOriginal>();
    const store: OriginalStore = {
      put(text, meta) {
        if (typeof text !== 'string') throw new Error('the plugin stores text only');
        const id = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
        const now = Date.now();
        const entry = {
          id,
          type: meta.type,
          size: bytes(text),
          text,
          createdAt: now,
          ttlAt: now + options.ttlSeconds * 1000,
          lastAccessed: now,
        };
        entries.set(id, entry);
        return { id, size: entry.size };
      },
      get(id): Lookup {
        const entry = entries.get(id);
        const lookup: Lookup = !entry
          ? { found: false, reason: 'unknown' }
          : Date.now() >= entry.ttlAt
            ? { found: false, reason: 'expired' }
            : { found: true, entry };
        options.onEvent(lookup.found ? { kind: 'retrieved', id } : { kind: 'miss', id, reason: lookup.reason });
        return lookup;
      },
    };
    const services: Services = {
      squeeze: { compress: (text) => headTail(text) },
      estimator: { estimate: (text) => Math.ceil(text.length / 3) },
      store,
      retrieve(request) {
        const lookup = store.get(request.id);
        if (!lookup.found)
          return {
            ok: false,
            id: request.id,
            reason: lookup.reason,
            message: `${lookup.reason} ${request.id}: Re-run the original tool`,
          };
        // the store's forms: a range is the exact bytes of its lines, a grep the
        // matching lines with their 1-based numbers
        const all = lookup.entry.text.split('\n');
        const start = Math.min(all.length, Math.max(0, request.range?.start ?? 0));
        const end = Math.min(all.length, start + Math.max(0, request.range?.count ?? all.length));
        const lines = all.slice(start, end);
        const { id, type, size } = lookup.entry;
        const served = {
          ok: true as const,
          id,
          type,
          size,
          totalLines: all.length,
          lines: { start, count: end - start },
        };
        if (request.grep === undefined) return { ...served, text: lines.join('\n') + (end < all.length ? '\n' : '') };
        const re = new RegExp(request.grep);
        const text = lines.flatMap((l, i) => (re.test(l) ? [`${start + i + 1}: ${l}`] : [])).join('\n');
        return { ...served, text };
      },
      close: () => {},
      notice: (input) =>
        `<<<CCR:${input.id}|${input.type}|${input.size}>>> ccr_retrieve {"hash":"${input.id}"}` +
        (input.spill ? `; also at ${input.spill.locator}. ${input.spill.hint}` : ''),
      ...overrides,
    };
    return services;
  };
}
