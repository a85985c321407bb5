// The estimator against the real tokenizers on every corpus file. Exact
// DeepSeek-V3 counting runs at about 0.4 MB/s (the whole 18.7 MB corpus takes
// ~50 s here with o200k), so each file is counted on a deterministic sample:
// all of it up to 32 K units, else 8 chunks of 4 K units at evenly spaced
// offsets, line-aligned where a line end is near (scripts/exact-tokens.ts
// evenSample): 2.7 M units in all, ~7 s of CPU for DeepSeek-V3. The calibration script reports the same
// statistics on the full corpus.
import { estimateTokenCount } from 'tokenx';
import { describe, expect, it } from 'vitest';
import { createEstimator } from '../../src/engine/index.js';
import type { TokenProfileName } from '../../src/engine/index.js';
import { deviationStats, evenSample, exactTokens, formatStats } from '../../scripts/exact-tokens.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';
import { everydayFiles } from '../support/everyday.js';

const SAMPLE_UNITS = 32 * 1024;
const SAMPLE_PIECES = 8;

const sampled = (name: string, text: string) => ({
  name,
  pieces: evenSample(text, SAMPLE_UNITS, SAMPLE_PIECES).map(({ start, end }) => text.slice(start, end)),
});
const noCorpus = skipWithoutSharedCorpus('estimator accuracy on the shared corpus');
const shared = (noCorpus ? [] : corpusFiles()).map((f) => sampled(`${f.folder}/${f.name}`, f.text));
// The everyday corpus (reads, grep, listings, git, tables, builds), held-out part included.
const everyday = everydayFiles().map((f) => sampled(`everyday/${f.file}`, f.text));

function rowsFor(
  samples: readonly (typeof shared)[number][],
  tokenizer: TokenProfileName,
  estimate: (text: string) => number,
) {
  return samples.map(({ name, pieces }) => ({
    name,
    exact: pieces.reduce((s, p) => s + exactTokens(tokenizer, p), 0),
    estimate: pieces.reduce((s, p) => s + estimate(p), 0),
  }));
}

// Bounds: the targets for DeepSeek-V3 (the default profile) hold on the shared
// and the everyday corpus together. o200k is held to the same bounds on the
// shared corpus (there calibration measured 3.3% mean, 8.4% p95, 13.5% worst,
// +1.2% bias); on both corpora it measures 10.7% p95, over the bound, so that
// pair is reported by scripts/calibrate-tokens.ts and not asserted here.
const TARGETS = { mean: 0.04, p95: 0.1, worst: 0.2, biasLow: 0, biasHigh: 0.03 };
// Without the shared corpus (a bare clone) only the everyday corpus can be
// measured; it alone is the harder part (4.5% mean, 11.3% p95, 19.4% worst,
// +2.5% bias today), so it is guarded against regressions at those levels.
const EVERYDAY_ALONE = { mean: 0.05, p95: 0.12, worst: 0.2, biasLow: 0, biasHigh: 0.03 };

type Bounds = typeof TARGETS;
const cases: [TokenProfileName, string, typeof shared, Bounds][] = noCorpus
  ? [['deepseek-v3', 'everyday corpus', everyday, EVERYDAY_ALONE]]
  : [
      ['deepseek-v3', 'shared + everyday corpora', [...shared, ...everyday], TARGETS],
      ['o200k', 'shared corpus', shared, TARGETS],
    ];

describe.each(cases)('estimator accuracy against %s on the %s', (tokenizer, corpora, samples, BOUNDS) => {
  it('stays within the deviation bounds on every corpus file (sampled)', () => {
    const estimator = createEstimator({ profile: tokenizer });
    const exact = rowsFor(samples, tokenizer, (t) => estimator.estimate(t));
    const ours = deviationStats(exact);
    const byName = new Map(exact.map((r) => [r.name, r.exact]));
    const compare = (estimate: (t: string) => number) =>
      deviationStats(rowsFor(samples, tokenizer, estimate).map((r) => ({ ...r, exact: byName.get(r.name)! })));
    console.log(
      [
        `accuracy against ${tokenizer} (sampled ${corpora})`,
        '| estimator | mean | p95 | worst | bias |',
        `${formatStats(`squeeze ${tokenizer}`, ours)} worst file: ${ours.worstName}`,
        formatStats(
          'tokenx',
          compare((t) => estimateTokenCount(t)),
        ),
        formatStats(
          'chars/4',
          compare((t) => Math.ceil(t.length / 4)),
        ),
      ].join('\n'),
    );
    expect(ours.mean).toBeLessThanOrEqual(BOUNDS.mean);
    expect(ours.p95).toBeLessThanOrEqual(BOUNDS.p95);
    expect(ours.worst).toBeLessThanOrEqual(BOUNDS.worst);
    expect(ours.bias).toBeGreaterThanOrEqual(BOUNDS.biasLow);
    expect(ours.bias).toBeLessThanOrEqual(BOUNDS.biasHigh);
  }, 300_000);
});
