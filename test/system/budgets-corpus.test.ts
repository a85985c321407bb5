// maxTokens is a ceiling on real outputs too: every corpus file (when the
// shared corpus is present), every level, at the defaults and at a tight
// ceiling, comes out within maxTokens, retrieval notice included.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import type { Level } from '../../src/types.js';
import { CORPUS_DIR, corpusFiles } from '../support/corpus.js';

const LEVELS: (Level | 'auto')[] = ['auto', 'lossless', 'light', 'aggressive', 'emergency'];
const CEILINGS = [{}, { targetTokens: 1000, maxTokens: 2000 }];

describe.skipIf(!existsSync(CORPUS_DIR))('maxTokens holds on the corpus', () => {
  it('no output over maxTokens, any file, any level', () => {
    const over: string[] = [];
    let cut = 0;
    for (const file of corpusFiles()) {
      for (const ceiling of CEILINGS) {
        for (const level of LEVELS) {
          const squeeze = createSqueeze({ ...ceiling, level });
          const result = squeeze.compress(file.text, { toolName: file.tool });
          if (result.tokensOut > squeeze.options.maxTokens) over.push(`${file.name} ${level} ${result.tokensOut}`);
          if (result.tokensIn > squeeze.options.maxTokens) cut++;
        }
      }
    }
    expect(over).toEqual([]);
    expect(cut).toBeGreaterThan(0);
  });
});
