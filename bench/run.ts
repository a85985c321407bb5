// The kernel benchmark: `npx tsx bench/run.ts` (add `--quick` for a smoke run
// that prints but writes nothing). Writes bench/results.md and
// bench/results.svg and prints the main table. See bench/kernels.ts to add a kernel.
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBackend } from '../src/engine/index.js';
import { SMALL_TEXT_UNITS } from '../src/engine/auto.js';
import { renderChart, type ChartRow } from './chart.js';
import { measureLineTableSteps } from './breakdown.js';
import { measureColdStart, measureFreshProcess } from './coldstart.js';
import { measureCrossover, SWEEP_UNITS } from './crossover.js';
import { measureHashLines } from './hashlines.js';
import { KB, MB, mixedInput, mixedInputSources } from './inputs.js';
import { KERNELS } from './kernels.js';
import { mbPerSecond, MIN_SAMPLES, timeRivals, type Plan } from './measure.js';

const quick = process.argv.includes('--quick');
const CROSSOVER_SAMPLES = 9;
/** Wall-clock budget per table row for the samples after warm-up. */
const BUDGET_MS = 3000;
const SIZES = quick ? [KB, 64 * KB, MB] : [KB, 64 * KB, MB, 16 * MB];

/**
 * Back-to-back runs per sample keep each sample near 256 KB of input. Fewer
 * samples at 16 MB, and slow kernels stop early at a time budget (never below
 * MIN_SAMPLES): the table shows the samples each row got.
 */
function planFor(bytes: number): Plan {
  const runs = Math.max(1, Math.floor((256 * KB) / bytes));
  if (quick) return { warmup: 1, samples: MIN_SAMPLES, runs };
  if (bytes >= 16 * MB) return { warmup: 1, samples: 5, runs, budgetMs: BUDGET_MS };
  if (bytes >= MB) return { warmup: 3, samples: 15, runs, budgetMs: BUDGET_MS };
  return { warmup: 5, samples: 31, runs, budgetMs: BUDGET_MS };
}

function sizeLabel(bytes: number): string {
  return bytes >= MB ? `${bytes / MB} MB` : `${bytes / KB} KB`;
}

function num(value: number, digits = 1): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(digits);
}

function units(n: number): string {
  return n >= 1024 ? `${n / 1024}K` : String(n);
}

/** Other helpers' sections: bench/<file> exporting an async function that returns markdown, when present. */
const SECTIONS: [file: string, exportName: string][] = [
  ['compress.ts', 'compressSpeed'],
  ['kinds.ts', 'kindSpeed'],
  ['estimator.ts', 'benchEstimator'],
  ['store.ts', 'storeBench'],
  ['plugin-latency.ts', 'pluginLatency'],
];

async function extraSections(): Promise<string[]> {
  const found: string[] = [];
  for (const [file, exportName] of SECTIONS) {
    const path = resolve(import.meta.dirname, file);
    if (!existsSync(path)) continue;
    const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const section = module[exportName];
    if (typeof section !== 'function') throw new Error(`bench/${file} must export ${exportName}(): Promise<string>`);
    console.error(`section: bench/${file}`);
    found.push(String(await section()));
  }
  return found;
}

/** Prints how long each phase took, so a slow run shows where its time went. */
function phase(name: string, since: number): number {
  console.error(`-- ${name}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
  return Date.now();
}

async function main(): Promise<void> {
  const started = Date.now();
  let mark = started;
  const loadBefore = loadavg()[0]!;
  const wasm = createBackend('wasm');
  const twin = createBackend('js');

  const rows: (ChartRow & { bytes: number; samples: number })[] = [];
  for (const bytes of SIZES) {
    const text = mixedInput(bytes);
    const actual = Buffer.byteLength(text, 'utf8');
    for (const kernel of KERNELS) {
      const prepared = kernel.prepare(text);
      const {
        ms: [w, t],
        samples,
      } = timeRivals([() => kernel.run(wasm, text, prepared), () => kernel.run(twin, text, prepared)], planFor(bytes));
      const row = {
        kernel: kernel.name,
        size: sizeLabel(bytes),
        bytes,
        samples,
        wasm: mbPerSecond(actual, w!),
        twin: mbPerSecond(actual, t!),
      };
      rows.push(row);
      console.error(`${row.kernel} ${row.size}: wasm ${num(row.wasm)} MB/s, twin ${num(row.twin)} MB/s`);
    }
  }

  const table = [
    '| kernel | input | WebAssembly MB/s | TS twin MB/s | wasm/twin | samples |',
    '|---|---:|---:|---:|---:|---:|',
    ...KERNELS.flatMap((k) =>
      rows
        .filter((r) => r.kernel === k.name)
        .map(
          (r) =>
            `| ${r.kernel} | ${r.size} | ${num(r.wasm)} | ${num(r.twin)} | ${(r.wasm / r.twin).toFixed(2)}x | ${r.samples} |`,
        ),
    ),
  ].join('\n');
  console.log(table);
  mark = phase('throughput table', mark);

  const steps = measureLineTableSteps(mixedInput(MB), planFor(MB));
  const cold = measureColdStart(mixedInput(KB), quick ? 3 : 7);
  const fresh = measureFreshProcess([KB, MB], quick ? 1 : 3);
  mark = phase('line-table steps and cold start', mark);
  const hashRows = await Promise.all(
    [MB, ...(quick ? [] : [16 * MB])].map(async (bytes) => ({
      bytes,
      rows: await measureHashLines(mixedInput(bytes), bytes / MB, wasm, twin, planFor(bytes)),
    })),
  );
  mark = phase('hash every line', mark);
  const crossover = measureCrossover(KERNELS, wasm, twin, quick ? 3 : CROSSOVER_SAMPLES);
  mark = phase('crossover sweep', mark);
  // 'auto' picks one backend per text, for every kernel run on it: the whole analysis decides.
  const analyses = crossover.filter((c) => c.kernel.startsWith('analysis'));
  const proposal = analyses.every((c) => c.crossover !== null) ? Math.max(...analyses.map((c) => c.crossover!)) : null;
  const extras = await extraSections();
  phase('other sections', mark);
  const losses = rows.filter((r) => r.wasm < r.twin);

  const md = [
    '# Kernel benchmark: WebAssembly against the TypeScript twin',
    '',
    `Generated by \`npx tsx bench/run.ts\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    `Machine: Node ${process.version} (V8 ${process.versions.v8}), ${cpus()[0]?.model ?? 'unknown CPU'} x ${cpus().length}, ${process.platform}/${process.arch}; 1-minute load average ${loadBefore.toFixed(2)} at the start and ${loadavg()[0]!.toFixed(2)} at the end (other processes on a shared machine slow both sides, not always alike).`,
    '',
    '## Method',
    '',
    '- Inputs: prefixes of one deterministic stream of the real corpus (`../shared/corpus`, read in place): every file once, one file from each folder in turn (API JSON, CI logs, system logs, test reports, web pages), cut at a character boundary to 1 KB, 64 KB, 1 MB and 16 MB of UTF-8. MB/s = 2^20 bytes of that UTF-8 input per second.',
    `- Corpus files per input: ${SIZES.map((b) => `${sizeLabel(b)} ${mixedInputSources(b).files}`).join(', ')}; the 1 KB input is the start of \`${mixedInputSources(KB).first}\` alone.`,
    '- Both sides run through the public `Backend` methods, so the WebAssembly numbers include copying the text in (`begin`) and the result arrays out; the twin numbers include allocating its result arrays.',
    `- Each figure is the median of repeated samples in one process after warm-up (up to ${planFor(KB).samples} samples at 1 KB and 64 KB, ${planFor(MB).samples} at 1 MB, ${planFor(16 * MB).samples} at 16 MB; slow rows stop at a ${BUDGET_MS / 1000} s budget but take at least ${MIN_SAMPLES}: the samples column says how many); small sizes repeat the call back to back within a sample (about 256 KB of input per sample). WebAssembly and twin samples are interleaved.`,
    '',
    ...KERNELS.map((k) => `- **${k.name}**: ${k.measures}.`),
    '',
    '## Throughput',
    '',
    table,
    '',
    '![MB/s per kernel and size, WebAssembly vs twin, log scale](results.svg)',
    '',
    '## Where WebAssembly loses',
    '',
    ...(losses.length
      ? losses.map(
          (r) =>
            `- ${r.kernel} at ${r.size}: ${num(r.wasm)} MB/s against the twin's ${num(r.twin)} MB/s (${(r.wasm / r.twin).toFixed(2)}x).`,
        )
      : ['- Nowhere in the table above.']),
    '',
    "The kernels that only take and return arrays (group, repeated blocks, window hashes, seen blocks, windows) pay a fixed cost per call on the WebAssembly side (arena, copying their input arrays in and their results out), which dominates at 1 KB; window hashes and seen blocks are plain loops over typed arrays that V8 compiles nearly as well as WebAssembly, so the copies can eat the whole difference at any size. Texts shorter than the crossover measured below ('Where auto should switch') go to the twin whole.",
    '',
    '## Inside the WebAssembly line table (1 MB)',
    '',
    'The steps of `begin` + `lineTable` timed one by one (median ms): what copying costs next to the kernels.',
    '',
    '| step | ms |',
    '|---|---:|',
    ...steps.map((s) => `| ${s.step} | ${s.ms.toFixed(3)} |`),
    '',
    '## Cold start',
    '',
    `- \`build/squeeze.wasm\`: ${cold.bytes} bytes (${cold.base64Chars} characters as the base64 embedded in the bundle), no imports.`,
    `- Median of ${cold.samples} fresh Node processes: \`new WebAssembly.Module\` ${cold.compile.toFixed(3)} ms, \`new WebAssembly.Instance\` ${cold.instantiate.toFixed(3)} ms, first call (copy 1 KB in, \`count_lines\` + \`lines\`) ${cold.firstCall.toFixed(3)} ms. V8 compiles lazily, so part of the compile lands in the first call.`,
    '',
    'A one-shot process (the CLI) pays this instead of the warmed figures above: median of fresh processes per row; `load` is `createBackend()` (for WebAssembly: base64 decode, validate, compile, instantiate); first and second analysis are begin + lineTable + groupLines on the benchmark input, before and after the engine has warmed at all.',
    '',
    '| backend | input | load ms | first analysis ms | second analysis ms |',
    '|---|---:|---:|---:|---:|',
    ...fresh.map(
      (f) =>
        `| ${f.backend === 'wasm' ? 'WebAssembly' : 'TS twin'} | ${sizeLabel(f.bytes)} | ${f.load.toFixed(2)} | ${f.first.toFixed(2)} | ${f.second.toFixed(2)} |`,
    ),
    '',
    '## Hash every line',
    '',
    'Milliseconds per MB of input (median). DESIGN.md measured 2.5 ms per MB for xxhash-wasm once per line.',
    '',
    `| method | ${hashRows.map((h) => sizeLabel(h.bytes)).join(' | ')} |`,
    `|---|${hashRows.map(() => '---:').join('|')}|`,
    ...hashRows[0]!.rows.map(
      (r, i) => `| ${r.label} | ${hashRows.map((h) => h.rows[i]!.msPerMB.toFixed(2)).join(' | ')} |`,
    ),
    '',
    "## Where 'auto' should switch to WebAssembly",
    '',
    `wasm/twin speed ratio (> 1: WebAssembly faster) by text length in UTF-16 code units; each point runs the kernel on one prefix of each corpus folder (${SWEEP_UNITS.length} sizes, median of ${quick ? 3 : CROSSOVER_SAMPLES} samples). Crossover: the smallest swept size from which WebAssembly wins at every larger swept size.`,
    '',
    `| kernel | ${SWEEP_UNITS.map(units).join(' | ')} | crossover |`,
    `|---|${SWEEP_UNITS.map(() => '---:').join('|')}|---:|`,
    ...crossover.map(
      (c) =>
        `| ${c.kernel} | ${c.ratios.map((r) => r.toFixed(2)).join(' | ')} | ${c.crossover === null ? 'none' : units(c.crossover)} |`,
    ),
    '',
    `\`src/engine/auto.ts\` has SMALL_TEXT_UNITS = ${SMALL_TEXT_UNITS}. 'auto' chooses one backend per text for every kernel that runs on it, so the analysis rows decide: ` +
      (proposal !== null
        ? `both are faster on WebAssembly from ${units(proposal)} code units up (${analyses.map((c) => `${c.kernel}: ${units(c.crossover!)}`).join('; ')}); proposed SMALL_TEXT_UNITS = ${proposal}.`
        : `at least one never became faster on WebAssembly in the sweep (${analyses.map((c) => `${c.kernel}: ${c.crossover === null ? 'none' : units(c.crossover)}`).join('; ')}); no proposal from this run.`),
    '',
    ...extras.flatMap((s) => [s.trim(), '']),
  ].join('\n');

  if (quick) {
    console.log(md);
    return;
  }
  writeFileSync(resolve(import.meta.dirname, 'results.md'), md);
  writeFileSync(
    resolve(import.meta.dirname, 'results.svg'),
    renderChart(rows, `squeeze kernels: MB/s, WebAssembly vs TS twin (${process.version}, ${cpus()[0]?.model ?? ''})`),
  );
  console.error(`wrote bench/results.md and bench/results.svg in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await main();
