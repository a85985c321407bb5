// The budget searches' cost sums (src/processors/costs.ts): an output of kept
// original lines and markers, joined by '\n', costs exactly what the
// estimator says of the rendered text, so a search can sum instead of render.
import { describe, expect, it } from 'vitest';
import { createEstimator, TextAnalysis } from '../../src/engine/index.js';
import { lineAloneTokens, OutputCosts, textTokens } from '../../src/processors/costs.js';
import { omittedLines } from '../../src/processors/markers.js';
import { backendName, testBackend } from '../support/backend.js';
import { everydayFiles } from '../support/everyday.js';
import { fixtures } from '../support/fixtures.js';

const estimator = createEstimator({ backend: testBackend() });
const texts = [
  ...everydayFiles().map((f) => [f.file, f.text] as const),
  ...['diff', 'gitlog', 'listing'].flatMap((folder) => fixtures(folder).map((f) => [f.name, f.text] as const)),
  ['CRLF, blank lines, no final break', 'a\r\n\r\n  b\r\n\r\nlast'] as const,
  ['final blank line', 'one\ntwo\n\n'] as const,
];

describe(`output costs (${backendName})`, () => {
  it.each(texts)('%s: each line alone costs what the estimator says of it', (_, text) => {
    const analysis = new TextAnalysis(text, testBackend());
    const alone = lineAloneTokens(estimator, analysis)!;
    expect(alone).toEqual(Array.from({ length: analysis.lines.count }, (_, i) => estimator.estimate(analysis.line(i))));
    expect(lineAloneTokens({ estimate: (s) => s.length }, analysis)).toBeNull();
  });

  it.each(texts)(
    '%s: the analysed text costs what the estimator says of it, counted without a pass over it',
    (_, text) => {
      const analysis = new TextAnalysis(text, testBackend());
      expect(textTokens(estimator, analysis, text)).toBe(estimator.estimate(text));
      const other = `${text}\nmore`;
      expect(textTokens(estimator, analysis, other)).toBe(estimator.estimate(other));
      const own = { estimate: (s: string) => s.length };
      expect(textTokens(own, analysis, text)).toBe(text.length);
    },
  );

  it.each(texts)('%s: summed costs of kept lines and markers equal the estimate of the rendered text', (_, text) => {
    const analysis = new TextAnalysis(text, testBackend());
    const costs = new OutputCosts(estimator, analysis);
    const { count } = analysis.lines;
    expect(costs.textTokens).toBe(estimator.estimate(text));
    expect(costs.spanTokens(0, count - 1)).toBe(
      estimator.estimate(Array.from({ length: count }, (_, i) => analysis.line(i)).join('\n')),
    );
    for (let seed = 1; seed <= 6; seed++) {
      const out: string[] = [];
      let milli = 0;
      let lastEmpty = false;
      for (let i = 0; i < count; ) {
        // Runs of 1-7 lines, alternately kept and folded, varied by the seed.
        const run = Math.min(count - i, 1 + ((i * 31 + seed * 17) % 7));
        if ((i + seed) % 3 === 0) {
          const marker = omittedLines(i, i + run, 'context');
          out.push(marker);
          milli += costs.piece(marker);
          lastEmpty = false;
        } else {
          for (let k = i; k < i + run; k++) out.push(analysis.line(k));
          milli += costs.lines(i, i + run - 1);
          lastEmpty = costs.lineEmpty(i + run - 1);
        }
        i += run;
      }
      expect(costs.tokens(milli, lastEmpty), `seed ${seed}`).toBe(estimator.estimate(out.join('\n')));
    }
  });
});
