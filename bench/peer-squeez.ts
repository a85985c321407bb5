// `npm run bench:peer -- [--squeez PATH] [--fixtures DIR] [--inputs DIR] [--repeats N]`:
// squeeze against squeez (github claudioemmanuel/squeez, v1.11.2) on the 23
// scenarios of squeez's own benchmark, both judged by the same measures:
// squeez's metric (UTF-8 bytes / 4) and DeepSeek-V3's real tokenizer, squeez's
// quality rule, lines not in the input, error lines kept, time per call.
//
// This script never builds squeez and holds none of its code: it takes a squeez
// binary the user built (--squeez or SQUEEZ_BIN). The inputs are squeez's too:
// its fixture files from its checkout's bench/fixtures (--fixtures,
// SQUEEZ_BENCH_FIXTURES, else found next to the binary as squeez finds them),
// and the inputs squeez generates inside its benchmark process, which no squeez
// command prints, from a folder of dumps named <scenario>.txt (--inputs).
// Without a binary, squeeze runs alone on the inputs it has.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { deepSeekCounter } from '../src/eval/counters.js';
import { bytesOver4, errorLines, inventedLines, quality } from './peer-squeez/judge.js';
import { SCENARIOS, type Scenario } from './peer-squeez/scenarios.js';
import { runSqueez, runSqueeze, scratch, type SideResult } from './peer-squeez/sides.js';

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

const binary = option('--squeez') ?? process.env.SQUEEZ_BIN;
const repeats = Number(option('--repeats') ?? 3);
const inputsDir = option('--inputs');
const fixturesDir =
  option('--fixtures') ??
  process.env.SQUEEZ_BENCH_FIXTURES ??
  (binary ? resolve(dirname(binary), '../../bench/fixtures') : undefined);
const cli = resolve(import.meta.dirname, '../dist/cli.js');

/** The scenario's input: a dump in --inputs, else squeez's fixture file; null when neither is at hand. */
function inputOf(scenario: Scenario): string | null {
  const dumped = inputsDir ? join(inputsDir, `${scenario.name}.txt`) : null;
  if (dumped && existsSync(dumped)) return readFileSync(dumped, 'utf8');
  const fixture = scenario.fixture && fixturesDir ? join(fixturesDir, scenario.fixture) : null;
  return fixture && existsSync(fixture) ? readFileSync(fixture, 'utf8') : null;
}

/** squeez's own report (`squeez benchmark --json`), in a scratch state folder: its latency inside its process. */
function squeezReport(path: string): Map<string, { compressed: number; latencyUs: number }> {
  const home = scratch('report');
  const env = {
    ...process.env,
    HOME: home,
    SQUEEZ_DIR: home,
    ...(fixturesDir ? { SQUEEZ_BENCH_FIXTURES: fixturesDir } : {}),
  };
  const result = spawnSync(path, ['benchmark', '--json', '-n', String(repeats)], { env, maxBuffer: 1 << 26 });
  const report = new Map<string, { compressed: number; latencyUs: number }>();
  if (result.status !== 0) return report;
  const parsed = JSON.parse(String(result.stdout)) as {
    scenarios: { name: string; compressed_tokens: number; latency_us: number }[];
  };
  for (const s of parsed.scenarios) report.set(s.name, { compressed: s.compressed_tokens, latencyUs: s.latency_us });
  return report;
}

interface Judged {
  bytes: number;
  tokens: number | null;
  quality: number;
  invented: number;
  errorsKept: number;
  ms: number;
  inProcessMs: number | null;
}

const counter = await deepSeekCounter();
const count = (text: string): number | null => (counter ? counter.count(text) : null);

function judge(scenario: Scenario, input: string, side: SideResult): Judged {
  const last = side.outputs[side.outputs.length - 1] ?? '';
  const all = side.outputs.join('\n');
  const tokens = side.outputs.map(count);
  return {
    bytes: side.outputs.reduce((sum, o) => sum + bytesOver4(o), 0),
    tokens: tokens.some((t) => t === null) ? null : tokens.reduce((a, t) => a! + t!, 0),
    quality: quality(scenario, input, last),
    invented: side.outputs.reduce((sum, o) => sum + inventedLines(input, o).length, 0),
    errorsKept: errorLines(input, all).kept,
    ms: side.processMs,
    inProcessMs: side.inProcessMs,
  };
}

const pct = (before: number, after: number): string =>
  `${(before === 0 ? 0 : (100 * (before - after)) / before).toFixed(1)}%`;
const num = (n: number | null): string => (n === null ? '–' : n.toLocaleString('en-US'));

const report = binary ? squeezReport(binary) : new Map();
if (!binary)
  console.error(
    'squeez side skipped: give a squeez binary with --squeez PATH or SQUEEZ_BIN (this script never builds it).',
  );

const rows: string[] = [];
const missing: string[] = [];
const totals = { bytes: 0, tokens: 0, squeez: { bytes: 0, tokens: 0 }, squeeze: { bytes: 0, tokens: 0 }, errors: 0 };
const sums = { squeez: { pass: 0, invented: 0, kept: 0 }, squeeze: { pass: 0, invented: 0, kept: 0 } };
for (const scenario of SCENARIOS) {
  const input = inputOf(scenario);
  if (input === null) {
    missing.push(scenario.name);
    continue;
  }
  const calls = scenario.run.via === 'wrap' ? scenario.run.calls : 1;
  const bytesIn = bytesOver4(input) * calls;
  const tokensIn = (count(input) ?? 0) * calls;
  const errors = errorLines(input, '').total;
  const ours = judge(scenario, input, runSqueeze(cli, scenario, input, repeats));
  const theirs = binary ? judge(scenario, input, runSqueez(binary, scenario, input, repeats)) : null;
  totals.bytes += bytesIn;
  totals.tokens += tokensIn;
  totals.errors += errors;
  for (const [name, side] of [
    ['squeeze', ours],
    ['squeez', theirs],
  ] as const) {
    if (!side) continue;
    totals[name].bytes += side.bytes;
    totals[name].tokens += side.tokens ?? 0;
    sums[name].pass += side.quality >= 0.5 ? 1 : 0;
    sums[name].invented += side.invented;
    sums[name].kept += side.errorsKept;
  }
  const peer = (f: (j: Judged) => string) => (theirs ? f(theirs) : '–');
  const inside = report.get(scenario.name);
  rows.push(
    [
      scenario.name,
      num(bytesIn),
      peer((j) => `${num(j.bytes)} (${pct(bytesIn, j.bytes)})`),
      `${num(ours.bytes)} (${pct(bytesIn, ours.bytes)})`,
      peer((j) => pct(tokensIn, j.tokens ?? tokensIn)),
      pct(tokensIn, ours.tokens ?? tokensIn),
      `${peer((j) => j.quality.toFixed(2))} / ${ours.quality.toFixed(2)}`,
      `${peer((j) => String(j.invented))} / ${ours.invented}`,
      `${peer((j) => String(j.errorsKept))} / ${ours.errorsKept} of ${errors}`,
      `${peer((j) => j.ms.toFixed(0))} / ${ours.ms.toFixed(0)}`,
      `${inside ? (inside.latencyUs / 1000).toFixed(2) : '–'} / ${ours.inProcessMs?.toFixed(2) ?? '–'}`,
    ].join(' | '),
  );
}

const header = [
  'scenario',
  'bytes/4 in',
  'squeez bytes/4',
  'squeeze bytes/4',
  'squeez DS-V3',
  'squeeze DS-V3',
  'quality squeez / squeeze',
  'invented squeez / squeeze',
  'error lines kept squeez / squeeze',
  'ms per process squeez / squeeze',
  'ms in process squeez / squeeze',
];
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => ' --- ').join('|')}|`);
for (const row of rows) console.log(`| ${row} |`);
const side = (name: 'squeez' | 'squeeze') =>
  `${num(totals[name].bytes)} bytes/4 (${pct(totals.bytes, totals[name].bytes)}), ` +
  `${counter ? `${num(totals[name].tokens)} DeepSeek-V3 tokens (${pct(totals.tokens, totals[name].tokens)})` : 'DeepSeek-V3 not installed'}, ` +
  `quality ${sums[name].pass}/${rows.length}, ${sums[name].invented} invented lines, ${sums[name].kept}/${totals.errors} error lines kept`;
console.log(
  `\n${rows.length} scenarios, ${num(totals.bytes)} bytes/4 and ${counter ? num(totals.tokens) : '–'} DeepSeek-V3 tokens in.`,
);
if (binary) console.log(`squeez:  ${side('squeez')}`);
console.log(`squeeze: ${side('squeeze')}`);
if (missing.length > 0)
  console.log(
    `No input for ${missing.join(', ')}: give squeez's fixtures folder (--fixtures) and its generated inputs (--inputs).`,
  );
