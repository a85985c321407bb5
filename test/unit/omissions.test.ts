// A result's omissions are reported by the stages that wrote its markers, not
// read back from its output: over the repository's fixtures and corpora, at
// the default settings, under a tight ceiling (the cut and the emergency
// form), at lossless (same-shape folds) and after an earlier result was shown
// (references to it), they are exactly what omissionsOf reads from the output.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqueeze, type CompressResult, type SqueezeOptions } from '../../src/pipeline/index.js';
import { omissionsOf } from '../../src/processors/markers.js';
import { processors } from '../../src/processors/index.js';
import { backendName } from '../support/backend.js';

const ROOT = resolve(import.meta.dirname, '../..');

function texts(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return texts(path);
    return /\.(?:txt|out|log)$/.test(name) ? [path] : [];
  });
}

const FILES = [...texts(join(ROOT, 'test/fixtures')), ...texts(join(ROOT, 'test/corpus'))].sort();

const SETTINGS: Record<string, SqueezeOptions> = {
  default: {},
  'tight ceiling': { maxTokens: 300, targetTokens: 200, minTokens: 100 },
  lossless: { level: 'lossless' },
  aggressive: { level: 'aggressive' },
};

/** What the output's markers say, where the result reports line omissions at all. */
function readBack(result: CompressResult, original: string) {
  const lineSpans = processors[result.kind].lineShaped || result.level === 'emergency';
  return result.outcome === 'compressed' && lineSpans ? omissionsOf(result.output, original) : [];
}

describe('omissions as data', () => {
  it('reads fixtures', () => expect(FILES.length).toBeGreaterThan(100));

  for (const [setting, options] of Object.entries(SETTINGS)) {
    it(`equal the markers read back, ${setting}`, () => {
      const wrong: string[] = [];
      let marked = 0;
      for (const file of FILES) {
        const text = readFileSync(file, 'utf8');
        const result = createSqueeze({ backend: backendName, ...options }).compress(text);
        if (result.omissions.length > 0) marked++;
        if (JSON.stringify(result.omissions) !== JSON.stringify(readBack(result, text))) wrong.push(file);
      }
      expect(wrong).toEqual([]);
      expect(marked).toBeGreaterThan(10);
    });
  }

  it('equal the markers read back in a text whose lines end at a lone CR (progress output)', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `progress ${i % 100}% step ${i}`).join('\r');
    for (const options of Object.values(SETTINGS)) {
      const result = createSqueeze({ backend: backendName, ...options }).compress(text);
      expect(result.omissions.length).toBeGreaterThan(0);
      expect(readBack(result, text)).toEqual(result.omissions);
    }
  });

  it('equal the markers read back after an earlier result was shown', () => {
    const wrong: string[] = [];
    let referenced = 0;
    for (const file of FILES) {
      const text = readFileSync(file, 'utf8');
      const squeeze = createSqueeze({ backend: backendName, maxTokens: 4000, targetTokens: 1000 });
      squeeze.compress(text);
      const later = `${text.slice(0, text.length >> 1)}\nsomething new\n${text}`;
      const result = squeeze.compress(later);
      if (result.omitted['lines shown in earlier results']) referenced++;
      if (JSON.stringify(result.omissions) !== JSON.stringify(readBack(result, later))) wrong.push(file);
    }
    expect(wrong).toEqual([]);
    expect(referenced).toBeGreaterThan(10);
  });
});
