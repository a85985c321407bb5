// Logs and terminal output: head + evidence windows + unique
// stack-trace roots + tail; repeats collapsed with exact counts; the most
// frequent shapes of what was cut summarised with their varying values.
// Lossless keeps every line but collapses exact repeats and repeated blocks.
import { LineFlag, SEVERITY_COUNT, SEVERITY_NAMES, Severity, severityOf } from '../../engine/flags.js';
import { logSkeleton } from './skeleton.js';
import { type FieldSpans, rareLimit, type TextAnalysis } from '../../engine/index.js';
import type { Omitted, Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import { withoutTerminalCodes } from '../../text/ansi.js';
import { cutChars } from '../../text/strings.js';
import { estimateFor, lineMilliTokens } from '../costs.js';
import {
  collapsedLines,
  collapseOmission,
  count,
  linesOmission,
  lineSpan,
  note,
  omittedLines,
  type PlacedOmission,
} from '../markers.js';
import { deadlineTick, type Tick } from '../errors.js';
import { diagnosticBlocks, wholeBlocks } from './blocks.js';
import { preservedLines, prioritise, Tier } from './priority.js';
import { logConfidence } from './sniff.js';

/** An omission marker costs about this much: a lone line up to it is cheaper shown. */
const LONE_LINE_TOKENS = 16;

/** Fewest lines a repeated block has before it is replaced by a reference. */
const BLOCK_LINES = 3;

// Shown lines are the lines given byte for byte, trailing blanks included:
// quoting them (a verdict line, a grep for them, an edit) then matches. The
// pipeline gives them without colour codes (src/pipeline/ansi.ts); a caller
// of the processor alone may not, so a shape summary's example line, squeeze's
// own text, is shown without them here.
function readable(analysis: TextAnalysis, i: number, flags: Int32Array): string {
  const raw = analysis.line(i);
  return (flags[i]! & LineFlag.Ansi ? withoutTerminalCodes(raw) : raw).trimEnd();
}

/** Renders lines [from, to) with consecutive identical lines collapsed to `[×N lines a–b] line`. */
function renderRun(
  analysis: TextAnalysis,
  from: number,
  to: number,
  out: string[],
  omissions: PlacedOmission[],
  tick: Tick,
): number {
  const group = analysis.exact.group;
  let collapsed = 0;
  for (let i = from; i < to; ) {
    tick();
    let j = i + 1;
    while (j < to && group[j] === group[i]) j++;
    const line = analysis.line(i);
    if (j - i > 1) {
      out.push(collapsedLines(i, j, line));
      omissions.push(collapseOmission(i, j));
    } else out.push(line);
    collapsed += j - i - 1;
    i = j;
  }
  return collapsed;
}

/** True when every line of [from, to) equals the line before it (a run the [×N …] collapse handles). */
function insideRun(group: Int32Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (i === 0 || group[i] !== group[i - 1]) return false;
  return true;
}

function lossless(input: ProcessorInput, tick: Tick): ProcessorOutput {
  const { analysis } = input;
  const n = analysis.lines.count;
  const blocks = analysis.repeatedBlocks(BLOCK_LINES, 'exact');
  const group = analysis.exact.group;
  const out: string[] = [];
  const omissions: PlacedOmission[] = [];
  let line = 0;
  let collapsed = 0;
  let blockLines = 0;
  for (let b = 0; b < blocks.count; ) {
    tick();
    const start = blocks.start[b]!;
    const length = blocks.lines[b]!;
    const source = blocks.source[b]!;
    if (insideRun(group, start, start + length)) {
      b++;
      continue;
    }
    // A block repeated back to back (ABCABCABC) is one marker with its count.
    let times = 1;
    while (
      b + times < blocks.count &&
      blocks.source[b + times] === source &&
      blocks.lines[b + times] === length &&
      blocks.start[b + times] === start + times * length
    )
      times++;
    collapsed += renderRun(analysis, line, start, out, omissions, tick);
    const what = `repeat ${lineSpan(source, source + length, false)}`;
    out.push(omittedLines(start, start + length * times, times === 1 ? what : `${what} ${count(times)} times`));
    omissions.push(linesOmission(start, start + length * times));
    blockLines += length * times;
    line = start + length * times;
    b += times;
  }
  collapsed += renderRun(analysis, line, n, out, omissions, tick);
  const omitted: Omitted = {};
  if (collapsed > 0) omitted['identical consecutive lines'] = collapsed;
  if (blockLines > 0) omitted['lines of repeated blocks'] = blockLines;
  return { text: out.join('\n'), omitted, omissions };
}

/** How many lines from `from` walking by `step` fit in `tokens`, at most `max`. */
function linesWithin(cost: Int32Array, from: number, step: 1 | -1, max: number, tokens: number): number {
  let spent = 0;
  let lines = 0;
  for (let i = from; lines < max && i >= 0 && i < cost.length; i += step) {
    spent += cost[i]!;
    if (spent > tokens) break;
    lines++;
  }
  return lines;
}

/** Evidence density decides how much context surrounds each evidence line. */
function contextFor(evidence: number, lines: number, aggressive: boolean): { before: number; after: number } {
  const density = lines === 0 ? 0 : evidence / lines;
  if (density < 0.02) return aggressive ? { before: 1, after: 2 } : { before: 2, after: 3 };
  if (density < 0.1) return aggressive ? { before: 0, after: 1 } : { before: 1, after: 1 };
  return { before: 0, after: 0 };
}

/** As many fields as a line has: the example line's count is read whole. */
const ALL_FIELDS = 0x7fffffff;

/** Fields of each line a shape summary reads first (fitted: in loghub logs two of the first four vary in 3 shapes of 4). */
const FIELDS_READ_FIRST = 4;

/** Up to `limit` most frequent shapes among the omitted lines, with their varying values. */
function shapeSummary(analysis: TextAnalysis, omittedLine: Uint8Array, limit: number, tick: Tick): string[] {
  const templates = analysis.templates;
  // Omitted lines per shape, by the shape's first line.
  const counts = new Int32Array(omittedLine.length);
  for (let i = 0; i < omittedLine.length; i++) {
    tick();
    if (omittedLine[i]) counts[templates.group[i]!]!++;
  }
  const top: [number, number][] = [];
  for (let first = 0; first < counts.length; first++) if (counts[first]! >= 3) top.push([first, counts[first]!]);
  top.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  top.length = Math.min(top.length, limit);
  const flags = analysis.classes.flags;
  const { text } = analysis;
  // The omitted lines of each top shape, found in one pass: the shape's place in `top` by its first line.
  const place = new Int16Array(omittedLine.length).fill(-1);
  top.forEach(([first], t) => {
    place[first] = t;
  });
  const members = top.map((): number[] => []);
  for (let i = 0; i < omittedLine.length; i++) {
    tick();
    if (omittedLine[i] && place[templates.group[i]!]! >= 0) members[place[templates.group[i]!]!]!.push(i);
  }
  return top.map(([, k], t) => {
    const shape = members[t]!;
    const example = shape[0]!;
    const last = shape.at(-1)!;
    // Most summaries name fields near the start (a timestamp, a pid): each line is read up to its
    // first few fields, and whole only when fewer than two of them vary.
    const fields = analysis.volatileFields([example], ALL_FIELDS).first[1]!;
    let read = 0;
    let values: FieldSpans | null = null;
    const varying: string[] = [];
    for (let f = 0; f < fields && varying.length < 2; f++) {
      if (values === null || f >= read) {
        read = read === 0 ? Math.min(fields, FIELDS_READ_FIRST) : fields;
        values = analysis.volatileFields(shape, read);
      }
      const { spans, first } = values;
      const column = shape.map((_, r) =>
        first[r]! + f < first[r + 1]! ? text.slice(spans[2 * (first[r]! + f)], spans[2 * (first[r]! + f) + 1]) : '',
      );
      const range = valueRange(column);
      if (range !== null) varying.push(range);
    }
    const shown = cutChars(readable(analysis, example, flags), 160);
    // A summary of lines the gap markers already name: it stands for none itself.
    const within = lineSpan(example, last + 1, false);
    return `[×${count(k)} of this shape in ${within}${varying.length ? `; varying: ${varying.join('; ')}` : ''}] ${shown}`;
  });
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * What one field takes over every line it summarises, true of each: numbers
 * by their minimum and maximum, other values (timestamps, ids) by the first
 * and last in order. Null when the field does not vary.
 */
function valueRange(values: readonly string[]): string | null {
  const distinct = new Set(values);
  if (distinct.size < 2) return null;
  if (values.every((v) => DECIMAL.test(v))) {
    let min = values[0]!;
    let max = values[0]!;
    for (const v of values) {
      if (Number(v) < Number(min)) min = v;
      if (Number(v) > Number(max)) max = v;
    }
    return `${count(distinct.size)} values, min ${cutChars(min, 24)}, max ${cutChars(max, 24)}`;
  }
  return `${count(distinct.size)} values, first ${cutChars(values[0]!, 24)}, last ${cutChars(values.at(-1)!, 24)}`;
}

/** What a budgeted form needs that does not depend on its cap: computed once per text. */
interface Ranked {
  readonly cost: Int32Array;
  readonly priority: ReturnType<typeof prioritise>['priority'];
  readonly rare: RareEvidence | null;
  readonly evidence: ReturnType<typeof prioritise>['evidence'];
  readonly evidenceCost: number;
  readonly blocks: ReturnType<typeof diagnosticBlocks>;
  readonly preserved: ReturnType<typeof preservedLines>;
}

function rank(input: ProcessorInput): Ranked {
  const { analysis } = input;
  const n = analysis.lines.count;
  const milli = lineMilliTokens(input.estimator, analysis);
  const cost = new Int32Array(n);
  for (let i = 0; i < n; i++) cost[i] = Math.ceil(milli[i]! / 1000);
  const { priority, tier, evidence, evidenceCost } = prioritise(analysis, cost, input.preserve);
  return {
    cost,
    priority,
    rare: rareEvidence(analysis, tier, cost),
    evidence,
    evidenceCost,
    blocks: diagnosticBlocks(analysis),
    preserved: preservedLines(analysis, input.preserve),
  };
}

/**
 * At light, evidence that is rare in this log is shown whole while it fits
 * the cap: lines of Warning tier and above that no explicit INFO, DEBUG or
 * TRACE level marks as routine (a failure outcome always counts), when they
 * are at most rareLimit of the log's lines (the rule for a rare value in a
 * column). The plan samples a shape's evidence evenly, which is right where
 * errors are a third of a log and drops the one retry warning among forty
 * where they are not. Null when the evidence is not rare.
 */
function rareEvidence(analysis: TextAnalysis, tier: Int8Array, cost: Int32Array): RareEvidence | null {
  const flags = analysis.classes.flags;
  const lines: number[] = [];
  let tokens = 0;
  for (let i = 0; i < tier.length; i++) {
    if (tier[i]! < Tier.Warning) continue;
    const severity = severityOf(flags[i]!);
    if (severity !== Severity.None && severity < Severity.Warn && !(flags[i]! & LineFlag.Outcome)) continue;
    lines.push(i);
    tokens += cost[i]!;
  }
  return lines.length > 0 && lines.length <= rareLimit(tier.length) ? { lines, tokens } : null;
}

interface RareEvidence {
  readonly lines: readonly number[];
  readonly tokens: number;
}

/** Tokens the rare evidence lines `kept` does not hold add, their markers included. */
function leftOut(rare: RareEvidence, cost: Int32Array, kept: Uint8Array): number {
  let tokens = 0;
  // Each such line splits a gap in two: one more marker.
  for (const i of rare.lines) if (!kept[i]) tokens += cost[i]! + LONE_LINE_TOKENS;
  return tokens;
}

function budgeted(input: ProcessorInput, ranked: Ranked, cap: number, tick: Tick): ProcessorOutput {
  const { analysis, level } = input;
  const aggressive = level === 'aggressive';
  const n = analysis.lines.count;
  const { cost, priority, evidence, evidenceCost } = ranked;
  // Evidence first: distinct evidence may take the budget up to 4/5 of the ceiling.
  const budget = Math.max(1, Math.min(Math.max(input.budget, Math.ceil(evidenceCost * 1.1)), cap));
  const overview = Math.min(300, Math.floor(budget * 0.08));
  const planned = (tokens: number): Uint8Array => {
    const plan = analysis.planWindows({
      count: n,
      priority,
      cost,
      levels: analysis.classes.flags,
      budget: Math.max(1, Math.floor(tokens * 0.9) - overview),
      // Head and tail orient the reader, but evidence comes first: each end gets
      // at most a tenth of the budget.
      head: linesWithin(cost, 0, 1, aggressive ? 3 : 5, tokens / 10),
      tail: linesWithin(cost, n - 1, -1, aggressive ? 6 : 10, tokens / 10),
      ...contextFor(evidence, n, aggressive),
    });
    // The plan as a shown/omitted mask.
    const mask = new Uint8Array(n);
    for (let s = 0; s < plan.spans.length / 3; s++) {
      if (plan.spans[3 * s + 2]) mask.fill(1, plan.spans[3 * s]!, plan.spans[3 * s + 1]!);
    }
    return mask;
  };
  let kept = planned(budget);
  const rare = ranked.rare;
  if (!aggressive && rare !== null && rare.tokens <= cap) {
    // Rare evidence the plan left out comes first: the plan gets what is left
    // of its budget after it (at least a quarter), so the output stays near it.
    const extra = leftOut(rare, cost, kept);
    if (extra > 0) kept = planned(Math.max(budget / 4, budget - extra));
    for (const i of rare.lines) kept[i] = 1;
  }
  // Compiler diagnostic blocks made whole or gone.
  wholeBlocks(ranked.blocks, kept, ranked.preserved);
  const flags = analysis.classes.flags;
  const body: string[] = [];
  const omissions: PlacedOmission[] = [];
  const omittedLine = new Uint8Array(n);
  const bySeverity = new Array<number>(SEVERITY_COUNT).fill(0);
  let omittedTotal = 0;
  let collapsed = 0;
  for (let from = 0; from < n; ) {
    tick();
    let to = from + 1;
    while (to < n && kept[to] === kept[from]) to++;
    // A lone omitted line costing about what its marker would is shown instead.
    if (kept[from] || (to - from === 1 && cost[from]! <= LONE_LINE_TOKENS)) {
      collapsed += renderRun(analysis, from, to, body, omissions, tick);
      from = to;
      continue;
    }
    const breakdown: Record<string, number> = {};
    for (let i = from; i < to; i++) {
      tick();
      const v = Math.min(severityOf(flags[i]!), SEVERITY_COUNT - 1);
      breakdown[SEVERITY_NAMES[v]!] = (breakdown[SEVERITY_NAMES[v]!] ?? 0) + 1;
      bySeverity[v]!++;
    }
    omittedLine.fill(1, from, to);
    omittedTotal += to - from;
    body.push(omittedLines(from, to, breakdown));
    omissions.push(linesOmission(from, to));
    from = to;
  }
  const shapes = omittedTotal > 0 ? shapeSummary(analysis, omittedLine, aggressive ? 2 : 4, tick) : [];
  const header =
    shapes.length > 0
      ? [
          note(
            `${count(n)} lines, ${count(n - omittedTotal)} shown; most frequent shapes of the ${count(omittedTotal)} omitted:`,
          ),
          ...shapes,
        ]
      : [];
  const omitted: Omitted = {};
  for (let v = 0; v < SEVERITY_COUNT; v++) {
    if (bySeverity[v]! > 0) omitted[`${SEVERITY_NAMES[v]} lines`] = bySeverity[v]!;
  }
  if (collapsed > 0) omitted['identical consecutive lines'] = collapsed;
  return { text: [...header, ...body].join('\n'), omitted, omissions };
}

/**
 * The budgeted form within maxTokens: markers and shape summaries come on top
 * of the planned lines, so a plan that overshoots is redone with the evidence
 * cap shrunk by the overshoot.
 */
function fitted(input: ProcessorInput, tick: Tick): ProcessorOutput {
  tick();
  const ranked = rank(input);
  let cap = Math.floor(input.maxTokens * 0.8);
  let output = budgeted(input, ranked, cap, tick);
  for (let attempt = 0; attempt < 3; attempt++) {
    const tokens = input.estimator.estimate(output.text);
    if (tokens <= input.maxTokens) break;
    cap = Math.floor((cap * input.maxTokens * 0.95) / tokens);
    output = budgeted(input, ranked, cap, tick);
  }
  return output;
}

/** Programs whose output is a build, test or service log (routing by command line). */
const LOG_COMMANDS = [
  'npm test',
  'npm run',
  'npm install',
  'npm ci',
  'npm audit',
  'yarn test',
  'yarn run',
  'yarn install',
  'pnpm test',
  'pnpm run',
  'pnpm install',
  'jest',
  'vitest',
  'mocha',
  'pytest',
  'tox',
  'nox',
  'go test',
  'go build',
  'go vet',
  'cargo build',
  'cargo test',
  'cargo check',
  'cargo clippy',
  'cargo run',
  'make',
  'cmake',
  'ninja',
  'gcc',
  'g++',
  'cc',
  'clang',
  'clang++',
  'tsc',
  'eslint',
  'mvn',
  'gradle',
  'gradlew',
  'dotnet build',
  'dotnet test',
  'msbuild',
  'javac',
  'rustc',
  'docker build',
  'docker logs',
  'kubectl logs',
  'journalctl',
  'dmesg',
  'pip install',
  'strace',
  'ltrace',
  'mypy',
  'ruff',
  'flake8',
  'pylint',
];

export const logProcessor: Processor = {
  kind: 'log',
  lineShaped: true,
  runOutput: true,
  foldsShapes: true,
  commands: LOG_COMMANDS,
  fileExtensions: ['log'],
  sniff: logConfidence,
  process(input: ProcessorInput): ProcessorOutput {
    const tick = deadlineTick('log', input.expired);
    const output = input.level === 'lossless' ? lossless(input, tick) : fitted(input, tick);
    // Markers cost tokens too: on a tiny text they can outweigh what they replace.
    const suspect = output.text.length * 2 >= input.text.length;
    if (suspect && input.estimator.estimate(output.text) > estimateFor(input)(input.text)) {
      return { text: input.text, omitted: {}, omissions: [] };
    }
    return output;
  },
  skeleton: logSkeleton,
};
