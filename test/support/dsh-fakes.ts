// Small, honest stand-ins for squeeze's core, for adapter tests that must not
// depend on how well the pipeline compresses: a head/tail cut with an exact
// omission count, a Map store keyed like the real one, line-range/grep reads.
import { createHash } from 'node:crypto';
import type { ServiceFactory } from '../../src/adapters/dsh-plugin.js';
import type { Services } from '../../src/adapters/dsh-ports.js';
import type { CompressResult } from '../../src/pipeline/result.js';
import type { Lookup, StoredOriginal } from '../../src/store/types.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export function headTail(text: string, keep = 10): CompressResult {
  const lines = text.split('\n');
  const cut = lines.length > 2 * keep;
  const output = cut
    ? [...lines.slice(0, keep), `[… ${lines.length - 2 * keep} lines omitted …]`, ...lines.slice(-keep)].join('\n')
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
    id: null,
    backend: 'js',
    ms: 0,
  };
}

export function fakeServices(overrides: Partial<Services> = {}): ServiceFactory {
  return (_config, options) => {
    const entries = new Map<string, StoredOriginal>();
    const services: Services = {
      squeeze: { compress: (text) => headTail(text) },
      estimator: { estimate: (text) => Math.ceil(text.length / 3) },
      store: {
        put(text, meta) {
          const id = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
          const now = Date.now();
          const entry = { id, type: meta.type, size: bytes(text), text, createdAt: now, ttlAt: now + options.ttlSeconds * 1000, lastAccessed: now };
          entries.set(id, entry);
          return { id, size: entry.size };
        },
        get(id): Lookup {
          const entry = entries.get(id);
          if (!entry) return { found: false, reason: 'unknown' };
          if (Date.now() >= entry.ttlAt) return { found: false, reason: 'expired' };
          entry.lastAccessed = Date.now();
          return { found: true, entry };
        },
      },
      retrieve(text, query) {
        let lines = text.split('\n');
        if (query.range) lines = lines.slice(Math.max(0, query.range.start), Math.max(0, query.range.start) + Math.max(0, query.range.count));
        if (query.grep !== undefined) {
          const re = new RegExp(query.grep);
          lines = lines.filter((l) => re.test(l));
        }
        return lines.join('\n');
      },
      notice: (r) =>
        `<<<CCR:${r.id}|${r.type}|${r.size}>>> ccr_retrieve {"hash":"${r.id}"}` +
        (r.locator ? `; also at ${r.locator}. ${r.retrievalHint}` : ''),
      ...overrides,
    };
    return services;
  };
}
