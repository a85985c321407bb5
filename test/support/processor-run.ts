// One processor called directly, and one pipeline, as the processor tests set them up.
import { TextAnalysis } from '../../src/engine/index.js';
import { createSqueeze, type SqueezeSetup } from '../../src/pipeline/index.js';
import type { Processor, ProcessorInput } from '../../src/types.js';
import { backendName, testBackend } from './backend.js';

/** A rough estimate (3 characters a token) for tests that need no real tokenizer. */
export const charEstimator = { estimate: (s: string) => Math.ceil(s.length / 3) };

/** The levels a processor is called at (the pipeline handles emergency itself). */
export type ProcessorLevel = ProcessorInput['level'];

export type RunOptions = Pick<ProcessorInput, 'level' | 'budget'> &
  Partial<Omit<ProcessorInput, 'text' | 'analysis' | 'level' | 'budget'>>;

/** `processor` on `text` with its analysis on the project's backend; maxTokens defaults to 3 × budget. */
export function runProcessor(processor: Processor, text: string, options: RunOptions) {
  return processor.process({
    text,
    analysis: new TextAnalysis(text, testBackend()),
    maxTokens: 3 * options.budget,
    estimator: charEstimator,
    preserve: [],
    ...options,
  });
}

/** A pipeline on the project's backend that neither stores nor retains originals. */
export function testSqueeze(setup: SqueezeSetup = {}) {
  return createSqueeze({ backend: backendName, store: null, retainOriginal: false, ...setup });
}
