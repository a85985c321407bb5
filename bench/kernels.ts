// The benchmark's kernel table: one entry per kernel. `run` is one timed call
// through the public Backend methods, so the WebAssembly side pays its copy in
// (begin) and its copies out exactly as the engine does. `prepare` computes,
// untimed, the inputs a kernel takes from an earlier kernel. Adding a kernel
// to the benchmark is adding one entry here.
import {
  EVIDENCE_FLAGS,
  severityOf,
  type Backend,
  type Fingerprints,
  type LineTable,
  type SeenWindows,
  type WindowRequest,
} from '../src/engine/index.js';
import { tokenProfile } from '../src/engine/token-profiles.js';
import { JsBackend } from '../src/engine/twin/backend.js';

export interface KernelCase<Prepared = unknown> {
  /** Row label. */
  readonly name: string;
  /** What one timed run does (printed under the table). */
  readonly measures: string;
  prepare(text: string): Prepared;
  run(backend: Backend, text: string, prepared: Prepared): unknown;
}

function kernelCase<P>(c: KernelCase<P>): KernelCase {
  return c as unknown as KernelCase;
}

/** The line table computed on the twin (bit-identical to WebAssembly's), for kernels that consume it. */
function twinLines(text: string): LineTable {
  const twin = new JsBackend();
  twin.begin(text);
  return twin.lineTable();
}

const noInput = (): null => null;

/** The default (DeepSeek-V3) cost table the token kernels take. */
const COSTS = tokenProfile().costs;
/** Lines per window, as RecentBlocks uses by default. */
const WINDOW_LINES = 4;
/** Shortest repeated block, as TextAnalysis uses by default. */
const BLOCK_LINES = 3;

/**
 * A log window request for the text, from the twin: evidence lines (any
 * evidence flag, or ERROR and above) first, per-line token costs, a budget of a
 * quarter of the text's tokens, 20 head and tail lines, 3 lines of context.
 */
function windowRequest(text: string): WindowRequest {
  const lines = twinLines(text);
  const twin = new JsBackend();
  twin.begin(text);
  const levels = twin.classifyLines(lines).flags;
  const milli = twin.lineTokens(lines.count, lines.start, lines.end, COSTS).milli;
  const cost = Int32Array.from(milli, (m) => Math.ceil(m / 1000));
  const priority = Int32Array.from(levels, (f) => (severityOf(f) >= 5 ? 2 : f & EVIDENCE_FLAGS ? 1 : 0));
  const budget = Math.ceil(cost.reduce((sum, c) => sum + c, 0) / 4);
  return { count: lines.count, priority, cost, levels, budget, head: 20, tail: 20, before: 3, after: 3 };
}

/** This text's windows, and the same windows as one earlier result: the case where every window was seen. */
function seenSelf(text: string): { windows: Fingerprints; seen: SeenWindows } {
  const lines = twinLines(text);
  const twin = new JsBackend();
  const windows = twin.windowHashes(lines.count, lines.hashA, lines.hashB, WINDOW_LINES);
  return { windows, seen: { ...windows, owner: new Int32Array(windows.hashA.length) } };
}

export const KERNELS: readonly KernelCase[] = [
  kernelCase({
    name: 'lines',
    measures:
      'begin(text) + lineTable(): copy in, line starts/ends and 64-bit line fingerprints, four arrays copied out',
    prepare: noInput,
    run(backend, text) {
      backend.begin(text);
      return backend.lineTable();
    },
  }),
  kernelCase({
    name: 'group',
    measures:
      "groupLines(count, hashA, hashB) on the text's line hashes: hashes copied in, exact-duplicate groups copied out (MB/s of the text the lines came from)",
    prepare: twinLines,
    run(backend, _text, lines: LineTable) {
      return backend.groupLines(lines.count, lines.hashA, lines.hashB);
    },
  }),
  kernelCase({
    name: 'templates',
    measures:
      'begin(text) + templateHashes(start, end, count): copy in text and line spans, template fingerprints (volatile fields masked) copied out',
    prepare: twinLines,
    run(backend, text, lines: LineTable) {
      backend.begin(text);
      return backend.templateHashes(lines.start, lines.end, lines.count);
    },
  }),
  kernelCase({
    name: 'repeated blocks',
    measures: `repeatedBlocks(count, hashA, hashB, ${BLOCK_LINES}) on the line hashes: blocks of >= ${BLOCK_LINES} lines repeating earlier lines of the same text`,
    prepare: twinLines,
    run(backend, _text, lines: LineTable) {
      return backend.repeatedBlocks(lines.count, lines.hashA, lines.hashB, BLOCK_LINES);
    },
  }),
  kernelCase({
    name: 'window hashes',
    measures: `windowHashes(count, hashA, hashB, ${WINDOW_LINES}): rolling fingerprints of every ${WINDOW_LINES}-line window`,
    prepare: twinLines,
    run(backend, _text, lines: LineTable) {
      return backend.windowHashes(lines.count, lines.hashA, lines.hashB, WINDOW_LINES);
    },
  }),
  kernelCase({
    name: 'seen blocks',
    measures: `seenBlocks(windows, ${WINDOW_LINES}, seen) with the text's own windows as the one earlier result (every window matches: the most work)`,
    prepare: seenSelf,
    run(backend, _text, input: ReturnType<typeof seenSelf>) {
      return backend.seenBlocks(input.windows, WINDOW_LINES, input.seen);
    },
  }),
  kernelCase({
    name: 'tokens',
    measures: "begin(text) + estimateTokens(costs): copy in, the whole text's token estimate (DeepSeek-V3 profile)",
    prepare: noInput,
    run(backend, text) {
      backend.begin(text);
      return backend.estimateTokens(COSTS);
    },
  }),
  kernelCase({
    name: 'line tokens',
    measures:
      'begin(text) + lineTokens(count, start, end, costs): copy in text and spans, milli-tokens per line copied out',
    prepare: twinLines,
    run(backend, text, lines: LineTable) {
      backend.begin(text);
      return backend.lineTokens(lines.count, lines.start, lines.end, COSTS);
    },
  }),
  kernelCase({
    name: 'classify',
    measures:
      'begin(text) + classifyLines(lines): copy in text and spans, a severity and class flags word per line copied out',
    prepare: twinLines,
    run(backend, text, lines: LineTable) {
      backend.begin(text);
      return backend.classifyLines(lines);
    },
  }),
  kernelCase({
    name: 'windows',
    measures:
      'planWindows(request): kept and omitted spans under a budget of a quarter of the tokens (evidence from classify, costs from line tokens, 20 head/tail, 3 context lines)',
    prepare: windowRequest,
    run(backend, _text, request: WindowRequest) {
      return backend.planWindows(request);
    },
  }),
  kernelCase({
    name: 'analysis (lines + group)',
    measures:
      'begin(text) + lineTable() + groupLines(): the line table and exact duplicates every processor starts from',
    prepare: noInput,
    run(backend, text) {
      backend.begin(text);
      const lines = backend.lineTable();
      return backend.groupLines(lines.count, lines.hashA, lines.hashB);
    },
  }),
  kernelCase({
    name: 'analysis (+ templates, tokens, classify)',
    measures:
      "the above + templateHashes + groupLines on templates + lineTokens + classifyLines, on one copy of the text: a log processor's per-text kernel work",
    prepare: noInput,
    run(backend, text) {
      backend.begin(text);
      const lines = backend.lineTable();
      backend.groupLines(lines.count, lines.hashA, lines.hashB);
      const templates = backend.templateHashes(lines.start, lines.end, lines.count);
      backend.groupLines(lines.count, templates.hashA, templates.hashB);
      backend.lineTokens(lines.count, lines.start, lines.end, COSTS);
      return backend.classifyLines(lines);
    },
  }),
];
