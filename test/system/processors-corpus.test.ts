// JSON on every api-json corpus file and HTML on every web page, with the
// stand-in estimator (chars / 3) at the pipeline's default budget: output
// smaller than input, no crash, and needle retention reported and floored.
import { afterAll, describe, expect, it } from 'vitest';
import { createBackend, TextAnalysis } from '../../src/engine/index.js';
import { htmlProcessor } from '../../src/processors/html/index.js';
import { jsonProcessor } from '../../src/processors/json/index.js';
import type { Level, Processor } from '../../src/types.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';

const estimator = { estimate: (s: string) => Math.ceil(s.length / 3) };
const BUDGET = 4000;
const noCorpus = skipWithoutSharedCorpus('processors on the corpus (JSON and HTML)');
const files = noCorpus ? [] : corpusFiles();

interface Tally {
  tokensIn: number;
  tokensOut: number;
  needles: number;
  kept: number;
}

const report: string[] = [];

function runFolder(folder: string, processor: Processor, level: Exclude<Level, 'emergency'>): Tally {
  const tally: Tally = { tokensIn: 0, tokensOut: 0, needles: 0, kept: 0 };
  for (const file of files.filter((f) => f.folder === folder)) {
    const analysis = new TextAnalysis(file.text, createBackend('js'));
    const out = processor.process({
      text: file.text,
      analysis,
      level,
      budget: BUDGET,
      maxTokens: 3 * BUDGET,
      estimator,
      preserve: [],
    });
    expect(estimator.estimate(out.text), file.name).toBeLessThan(estimator.estimate(file.text));
    tally.tokensIn += estimator.estimate(file.text);
    tally.tokensOut += estimator.estimate(out.text);
    tally.needles += file.needles.length;
    tally.kept += file.needles.filter((n) => out.text.includes(n)).length;
  }
  const reduction = 1 - tally.tokensOut / tally.tokensIn;
  report.push(
    `${folder.padEnd(9)} ${level.padEnd(10)} tokens ${tally.tokensIn} -> ${tally.tokensOut} (${(100 * reduction).toFixed(1)}% less), needles ${tally.kept}/${tally.needles} (${((100 * tally.kept) / tally.needles).toFixed(1)}%)`,
  );
  return tally;
}

const ratio = (t: Tally) => ({ reduction: 1 - t.tokensOut / t.tokensIn, needles: t.kept / t.needles });

describe.skipIf(noCorpus)('processors on the corpus', () => {
  afterAll(() => console.log(report.join('\n')));

  it('JSON: every api-json file, smaller, needles kept', () => {
    const lossless = ratio(runFolder('api-json', jsonProcessor, 'lossless'));
    const light = ratio(runFolder('api-json', jsonProcessor, 'light'));
    const aggressive = ratio(runFolder('api-json', jsonProcessor, 'aggressive'));
    expect(lossless.needles).toBe(1);
    expect(lossless.reduction).toBeGreaterThanOrEqual(0.4);
    expect(light.reduction).toBeGreaterThanOrEqual(0.7);
    expect(light.needles).toBeGreaterThanOrEqual(0.99);
    expect(aggressive.reduction).toBeGreaterThan(light.reduction);
    expect(aggressive.needles).toBeGreaterThanOrEqual(0.95);
  });

  it('HTML: every web page, smaller, needles kept', () => {
    const lossless = ratio(runFolder('web', htmlProcessor, 'lossless'));
    const light = ratio(runFolder('web', htmlProcessor, 'light'));
    const aggressive = ratio(runFolder('web', htmlProcessor, 'aggressive'));
    expect(lossless.reduction).toBeGreaterThanOrEqual(0.92);
    expect(lossless.needles).toBeGreaterThanOrEqual(0.97);
    expect(light.reduction).toBeGreaterThanOrEqual(0.95);
    expect(light.needles).toBeGreaterThanOrEqual(0.83);
    expect(aggressive.reduction).toBeGreaterThan(light.reduction);
  });
});
