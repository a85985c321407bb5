// maxTokens is a ceiling on real outputs too: every corpus file (when the
// shared corpus is present), every level, at the defaults and at a tight
// ceiling, comes out within maxTokens, retrieval notice included. One test
// per file, so each has its own time and a failure names its file.
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import type { Level } from '../../src/types.js';
import { corpusFiles, sharedCorpusAvailable, skipWithoutSharedCorpus } from '../support/corpus.js';

const LEVELS: (Level | 'auto')[] = ['auto', 'lossless', 'light', 'aggressive', 'emergency'];
const CEILINGS = [{}, { targetTokens: 1000, maxTokens: 2000 }];
const files = sharedCorpusAvailable ? corpusFiles() : [];

describe.skipIf(skipWithoutSharedCorpus('maxTokens on every corpus file at every level'))(
  'maxTokens holds on the corpus',
  () => {
    it('has files over the tight ceiling, so the ceiling is exercised', () => {
      const tight = createSqueeze(CEILINGS[1]!);
      expect(
        files.filter((file) => tight.estimator.estimate(file.text) > tight.options.maxTokens).length,
      ).toBeGreaterThan(0);
    });

    it.each(files.map((file) => [file.name, file]))('no output over maxTokens at any level: %s', (_, file) => {
      const over: string[] = [];
      for (const ceiling of CEILINGS) {
        for (const level of LEVELS) {
          const squeeze = createSqueeze({ ...ceiling, level });
          const result = squeeze.compress(file.text, { toolName: file.tool });
          if (result.tokensOut > squeeze.options.maxTokens)
            over.push(`${level} ${JSON.stringify(ceiling)}: ${result.tokensOut}`);
        }
      }
      expect(over).toEqual([]);
    });
  },
);
