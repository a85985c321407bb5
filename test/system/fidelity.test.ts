// The whole pipeline at its defaults on every corpus file: no needle lost for
// good (inline, or in the stored original behind the marker), no inflation,
// and per-folder floors at today's measured level, so a regression fails CI.
// Tokens are squeeze's estimator here; bench/eval.md has the exact DeepSeek-V3 counts.
import { describe, expect, it } from 'vitest';
import { createEstimator } from '../../src/engine/index.js';
import { createSqueeze } from '../../src/pipeline/index.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';

/** [reduction, needles inline] floors per folder (measured: 68.8/100, 76.7/87.5, 92.2/52.0, 93.4/96.3, 95.4/96.0). */
const FLOORS: Record<string, [number, number]> = {
  'api-json': [0.6, 0.99],
  'build-logs': [0.74, 0.85],
  loghub: [0.9, 0.5],
  'test-reports': [0.9, 0.95],
  web: [0.93, 0.95],
};

const noCorpus = skipWithoutSharedCorpus('fidelity on the corpus at default settings');

describe.skipIf(noCorpus)('fidelity on the corpus at default settings', () => {
  const estimator = createEstimator();
  const folders: Record<string, { in: number; out: number; needles: number; inline: number }> = {};
  const files = noCorpus ? [] : corpusFiles();

  it('loses no needle for good, never inflates, never grows', () => {
    for (const file of files) {
      const squeeze = createSqueeze();
      const result = squeeze.compress(file.text, { toolName: file.tool });
      expect(result.bytesOut, file.name).toBeLessThanOrEqual(result.bytesIn);
      expect(result.tokensOut, file.name).toBeLessThanOrEqual(result.tokensIn);
      const stored = result.id === null ? null : squeeze.store!.get(result.id);
      const original = stored?.found ? stored.entry.text : null;
      if (result.outcome === 'compressed') expect(original, file.name).toBe(file.text);
      for (const needle of file.needles) {
        expect(result.output.includes(needle) || original?.includes(needle), `${file.name}: ${needle}`).toBe(true);
      }
      const f = (folders[file.folder] ??= { in: 0, out: 0, needles: 0, inline: 0 });
      f.in += estimator.estimate(file.text);
      f.out += estimator.estimate(result.output);
      f.needles += file.needles.length;
      f.inline += file.needles.filter((n) => result.output.includes(n)).length;
    }
  });

  it.each(Object.entries(FLOORS))('%s stays at or above its floors', (folder, [reduction, inline]) => {
    const f = folders[folder]!;
    expect(1 - f.out / f.in).toBeGreaterThanOrEqual(reduction);
    expect(f.inline / f.needles).toBeGreaterThanOrEqual(inline);
  });
});
