// Token estimator benchmark: speed of the WASM path, the twin, tokenx and
// chars/4 on inputs cut from the corpus, and accuracy against the real
// tokenizers on the full corpus. `npx tsx bench/estimator.ts` prints the
// markdown section; bench/run.ts imports benchEstimator().
import { availableParallelism, loadavg } from 'node:os';
import { estimateTokenCount } from 'tokenx';
import { createEstimator, tokenProfile } from '../src/engine/index.js';
import { textMilli } from '../src/engine/twin/tokens.js';
import { deviationStats, exactChunks, formatStats } from '../scripts/exact-tokens.js';
import { corpusFiles } from '../test/support/corpus.js';

const SIZES: Array<[string, number]> = [
  ['1 KB', 1 << 10],
  ['64 KB', 1 << 16],
  ['1 MB', 1 << 20],
  ['16 MB', 1 << 24],
];

/** `size` units of the corpus (all files joined, repeated if needed), centred, from a line start. */
function inputOf(all: string, size: number): string {
  let source = all;
  while (source.length < size * 2) source += `\n${all}`;
  const middle = Math.floor((source.length - size) / 2);
  const start = source.indexOf('\n', middle) + 1;
  return source.slice(start, start + size);
}

/**
 * Median seconds of `run` after a warm-up (so small inputs are timed on
 * optimized code, not the first cold calls), repeated for about `budget`
 * seconds: at least 3 and at most 2001 runs.
 */
function medianSeconds(run: () => unknown, budget = 0.5): number {
  const warmUntil = performance.now() + budget * 200;
  for (let i = 0; i < 200 && (i < 2 || performance.now() < warmUntil); i++) run();
  const times: number[] = [];
  const started = performance.now();
  while (times.length < 3 || (times.length < 2001 && performance.now() - started < budget * 1000)) {
    const t = performance.now();
    run();
    times.push((performance.now() - t) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

export async function benchEstimator(): Promise<string> {
  const files = corpusFiles();
  const all = files.map((f) => f.text).join('\n');
  const wasm = createEstimator({ backend: 'wasm' });
  const twin = createEstimator({ backend: 'js' });
  const contenders: Array<[string, (text: string) => number]> = [
    ['squeeze WASM (copy in + kernel)', (t) => wasm.estimate(t)],
    ['squeeze twin (TypeScript)', (t) => twin.estimate(t)],
    ['tokenx', (t) => estimateTokenCount(t)],
  ];
  const out: string[] = [
    '## Token estimator',
    '',
    'Speed end to end (MB of UTF-8 input per second, median of repeated runs in one process;',
    'inputs are slices of the joined corpus):',
    '',
    `| estimator | ${SIZES.map(([label]) => label).join(' | ')} |`,
    `|---|${SIZES.map(() => '---:').join('|')}|`,
  ];
  const inputs = SIZES.map(([, size]) => inputOf(all, size));
  for (const [name, estimate] of contenders) {
    const cells = inputs.map((text) => {
      const mb = Buffer.byteLength(text, 'utf8') / 1e6;
      const seconds = medianSeconds(() => estimate(text), text.length > 4e6 && name === 'tokenx' ? 0 : 0.5);
      return (mb / seconds).toFixed(mb / seconds >= 100 ? 0 : 1);
    });
    out.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  out.push(`| chars/4 | ${SIZES.map(() => 'O(1): reads the length').join(' | ')} |`);
  out.push(
    '',
    `Twin and WASM agree on every input: ${inputs.every((t) => wasm.estimate(t) === twin.estimate(t))}.`,
    `Load average during the run: ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores (a busy machine slows every row alike).`,
  );

  const exact = exactChunks(files.map((f) => ({ key: `${f.folder}/${f.name}`, text: f.text })));
  for (const tokenizer of ['deepseek-v3', 'o200k'] as const) {
    const costs = tokenProfile(tokenizer).costs;
    const rows = (estimate: (text: string) => number) =>
      files.map((f) => {
        const key = `${f.folder}/${f.name}`;
        return {
          name: key,
          exact: exact.get(key)!.chunks.reduce((s, c) => s + c[tokenizer], 0),
          estimate: estimate(f.text),
        };
      });
    const ours = deviationStats(rows((t) => Math.ceil(textMilli(t, costs) / 1000)));
    out.push(
      '',
      `Accuracy against ${tokenizer} on all ${files.length} corpus files (exact counts summed over 8 K-unit chunks;`,
      'deviation = (estimate - exact) / exact per file; bias > 0 over-estimates):',
      '',
      '| estimator | mean | p95 | worst | bias |',
      '|---|---|---|---|---|',
      formatStats(`squeeze (${tokenizer} profile)`, ours),
      formatStats('tokenx', deviationStats(rows((t) => estimateTokenCount(t)))),
      formatStats('chars/4', deviationStats(rows((t) => Math.ceil(t.length / 4)))),
      '',
      `Worst file for squeeze: ${ours.worstName}.`,
    );
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchEstimator());
}
