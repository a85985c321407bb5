// The property every processor shares: on random input it returns no more
// than it was given, or refuses with a ProcessorError (the pipeline then
// falls back). Each processor's test file runs it on the project's backend.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { TextAnalysis } from '../../src/engine/index.js';
import { ProcessorError } from '../../src/processors/errors.js';
import type { Processor, ProcessorInput, TokenEstimator } from '../../src/types.js';
import { backendName, testBackend } from './backend.js';

const pieces = fc.constantFrom(
  '<p>',
  '</div>',
  '{"a":',
  '[1,',
  '"x"',
  ':12:',
  'src/a.ts',
  '/',
  '\n',
  ' ',
  '\u0000',
  '&amp;',
  '```',
  '- ',
  'ERROR ',
);
const texts = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.array(pieces, { maxLength: 200 }).map((p) => p.join('')),
);

export function describeNeverLarger(processor: Processor, estimator: TokenEstimator): void {
  describe(`${processor.kind} processor on random input (${backendName})`, () => {
    it('returns no more than it was given, or refuses with a ProcessorError', () => {
      fc.assert(
        fc.property(texts, fc.constantFrom('lossless', 'light', 'aggressive'), (text, level) => {
          try {
            const out = processor.process({
              text,
              analysis: new TextAnalysis(text, testBackend()),
              level: level as ProcessorInput['level'],
              budget: 50,
              maxTokens: 150,
              estimator,
              preserve: [],
            });
            return estimator.estimate(out.text) <= estimator.estimate(text);
          } catch (error) {
            return error instanceof ProcessorError;
          }
        }),
        { numRuns: 150 },
      );
    });
  });
}
