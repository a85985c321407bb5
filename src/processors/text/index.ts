// The text processor (prose, markdown, code, anything without a better
// processor). Extractive: every line shown is an original line, byte for
// byte (the old filler removal rewrote prose, so it is gone: a model must
// be able to quote what it was shown). Lossless collapses exact duplicate lines
// and paragraphs into markers naming their lines; aggressive also cuts long
// code blocks to their signatures. Over budget, evidence + head + tail
// selection with markers.
import type { Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import type { TextAnalysis } from '../../engine/index.js';
import { firstNonBlank } from '../head.js';
import {
  collapsedLines,
  count,
  collapseOmission,
  linesOmission,
  lineSpan,
  omittedLines,
  type PlacedOmission,
} from '../markers.js';
import { estimateFor, lineAloneTokens } from '../costs.js';
import { deadlineTick, type Tick } from '../errors.js';
import { keepPreserved } from '../keep-preserved.js';
import { EVIDENCE, STRONG_EVIDENCE, isSignature } from './rules.js';

interface Line {
  text: string;
  code: boolean;
  /** Holds a preserved string: never dropped. */
  keep: boolean;
  /** The first original line (0-based) this line stands for. */
  from: number;
  /** Original lines this line stands for (a `[×6 …]` collapse or a marker stands for several). */
  lines: number;
  /** Of those, how many are already in the omitted counts (so a later cut does not count them twice). */
  counted: number;
  /** What this line states, when it is a marker or a collapse. */
  omission?: PlacedOmission;
}

const FENCE = /^\s*(?:```|~~~)/;
/** Share of the budget evidence lines may take before head and tail. */
const EVIDENCE_SHARE = 0.6;
const CODE_BLOCK_KEEP = 12;

type Counts = Record<string, number>;

function add(counts: Counts, key: string, n: number): void {
  if (n > 0) counts[key] = (counts[key] ?? 0) + n;
}

/** A marker line standing for the original lines of `lines` (consecutive, in order). */
function gapLine(lines: readonly Line[], detail: string | Counts, code: boolean): Line {
  const from = lines[0]!.from;
  const to = lines[lines.length - 1]!.from + lines[lines.length - 1]!.lines;
  const counted = lines.reduce((a, l) => a + l.counted, 0);
  return {
    text: omittedLines(from, to, detail),
    code,
    keep: false,
    from,
    lines: to - from,
    counted: to - from - counted,
    omission: linesOmission(from, to),
  };
}

/**
 * Original lines as they are (never rewritten: every line shown is an original
 * line, byte for byte), fenced code flagged, exact runs of a non-blank line
 * collapsed to `[×N lines a–b] line` where that is shorter.
 */
function normalise(input: ProcessorInput, counts: Counts, tick: Tick): Line[] {
  const { analysis } = input;
  const n = analysis.lines.count;
  const group = n > 0 ? analysis.exact.group : new Int32Array(0);
  const out: Line[] = [];
  let inCode = false;
  // Where the current run of identical lines ends: a run that was not collapsed is not re-scanned from each of its lines (1e6 blank lines were quadratic).
  let runEnd = 0;
  for (let i = 0; i < n; i++) {
    tick();
    const text = analysis.line(i);
    const fence = FENCE.test(text);
    const code = inCode || fence;
    if (fence) inCode = !inCode;
    if (fence) runEnd = i + 1;
    else if (i >= runEnd) {
      runEnd = i + 1;
      while (runEnd < n && group[runEnd] === group[i]) runEnd++;
    }
    const run = runEnd - i;
    // Blank runs stay as they are: formatting a collapse for them was most of this loop's time.
    const collapsible = run > 1 && text.trim() !== '';
    const collapsed = collapsible ? collapsedLines(i, i + run, text) : text;
    const saving = (run - 1) * (text.length + 1) - (collapsed.length - text.length);
    if (collapsible && saving > 0) {
      out.push({
        text: collapsed,
        code,
        keep: false,
        from: i,
        lines: run,
        counted: run - 1,
        omission: collapseOmission(i, i + run),
      });
      add(counts, 'repeated lines', run - 1);
      i += run - 1;
    } else out.push({ text, code, keep: false, from: i, lines: 1, counted: 0 });
  }
  return out;
}

/** Later copies of a prose paragraph (60+ characters) become a marker naming the paragraph it repeats. */
function dedupeParagraphs(lines: Line[], counts: Counts, tick: Tick): Line[] {
  const out: Line[] = [];
  const seen = new Map<string, Line[]>();
  let para: Line[] = [];
  const flush = () => {
    const key = para.map((l) => l.text).join('\n');
    const prose = para.length > 0 && !para[0]!.code && key.length >= 60;
    const earlier = prose ? seen.get(key) : undefined;
    const marker =
      earlier &&
      gapLine(para, `repeat ${lineSpan(earlier[0]!.from, earlier.at(-1)!.from + earlier.at(-1)!.lines, false)}`, false);
    if (marker && marker.text.length < key.length) {
      out.push(marker);
      add(counts, 'duplicate paragraph lines', marker.counted);
    } else {
      if (prose && !earlier) seen.set(key, para);
      for (const line of para) out.push(line);
    }
    para = [];
  };
  for (const line of lines) {
    tick();
    if (line.text.trim() === '' && !line.code) {
      flush();
      out.push(line);
      continue;
    }
    if (para.length > 0 && para[0]!.code !== line.code) flush();
    para.push(line);
  }
  flush();
  return out;
}

/** Fenced code blocks longer than CODE_BLOCK_KEEP lines cut to their signatures. */
function cutCodeBlocks(lines: Line[], counts: Counts, tick: Tick): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < lines.length; ) {
    tick();
    if (!(lines[i]!.code && FENCE.test(lines[i]!.text))) {
      out.push(lines[i++]!);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && lines[end]!.code && !FENCE.test(lines[end]!.text)) end++;
    const body = lines.slice(i + 1, end);
    out.push(lines[i]!);
    if (body.length > CODE_BLOCK_KEEP) {
      const indents = body.filter((l) => l.text.trim()).map((l) => /^\s*/.exec(l.text)![0].length);
      const minIndent = indents.reduce((a, b) => Math.min(a, b), indents.length ? Number.POSITIVE_INFINITY : 0);
      let gap: Line[] = [];
      const closeGap = () => {
        if (gap.length === 0) return;
        const marker = gapLine(gap, '', true);
        out.push(marker);
        add(counts, 'code lines', marker.counted);
        gap = [];
      };
      body.forEach((l, j) => {
        if (j === 0 || j === body.length - 1 || l.keep || isSignature(l.text, minIndent)) {
          closeGap();
          out.push(l);
        } else gap.push(l);
      });
    } else for (const l of body) out.push(l);
    if (end < lines.length) out.push(lines[end]!);
    i = end + 1;
  }
  return out;
}

/**
 * Positions (into `lines`) of the text's unusual lines, most unusual first
 * (src/engine/anomaly.ts): failure outcomes, shapes seen once or twice where
 * shapes repeat, numeric outliers.
 */
function unusualLines(input: ProcessorInput, lines: readonly Line[]): number[] {
  const ranked = input.analysis.anomalies.ranked;
  if (ranked.length === 0) return [];
  const position = new Int32Array(input.analysis.lines.count).fill(-1);
  lines.forEach((line, p) => {
    if (line.lines === 1 || line.counted > 0) position[line.from] = p;
  });
  const out: number[] = [];
  for (const i of ranked) if (position[i]! >= 0) out.push(position[i]!);
  return out;
}

/** The shape (template group) of what a line shows: an original line's or a collapse's, -1 for a marker. */
function shapeOf(line: Line, shape: Int32Array): number {
  return line.omission === undefined || line.omission.collapsed ? shape[line.from]! : -1;
}

/**
 * A gap's words: how many of its lines have a shape the output shows (the
 * same words, numbers and ids aside: 36 more idle threads of one stack), how
 * many another; so a reader knows whether the gap holds anything new.
 */
function gapDetail(gap: readonly Line[], shown: ReadonlySet<number>, shape: Int32Array): string {
  let known = 0;
  let total = 0;
  for (const line of gap) {
    total += line.lines;
    if (shown.has(shapeOf(line, shape))) known += line.lines;
  }
  if (known === 0) return 'none of shapes shown';
  return known === total ? 'all of shapes shown' : `${count(known)} of shapes shown, ${count(total - known)} other`;
}

/**
 * Unusual lines (may take `extra` tokens past the target), then evidence
 * lines, then head and tail, until the budget; gaps marked with how many of
 * their lines are of shapes shown.
 */
function select(
  lines: Line[],
  target: number,
  estimate: (s: string) => number,
  counts: Counts,
  unusual: readonly number[],
  extra: number,
  tick: Tick,
  alone: readonly number[] | null,
  shape: Int32Array,
): Line[] {
  const cost = lines.map((l) => {
    tick();
    // An original line as it is costs what the analysis says of it alone: no estimate call per line.
    const original = alone && l.lines === 1 && l.counted === 0 && !l.omission;
    return (original ? alone[l.from]! : estimate(l.text)) + 1;
  });
  const keep = lines.map((l) => l.keep);
  let left = target - keep.reduce((a, k, i) => a + (k ? cost[i]! : 0), 0);
  const most = count(lines.length * 1000);
  const markerCost = estimate(omittedLines(0, lines.length * 1000, `${most} of shapes shown, ${most} other`)) + 1;
  // Taking a line may open a gap before it: its marker is paid for up front.
  const take = (i: number) => {
    const price = cost[i]! + (i > 0 && !keep[i - 1] ? markerCost : 0);
    if (keep[i] || price > left) return false;
    keep[i] = true;
    left -= price;
    return true;
  };
  // What is unusual in this text first, most unusual first; the extra room is for these alone.
  const share = left * EVIDENCE_SHARE;
  let room = unusual.length > 0 ? share + extra : 0;
  const start = left + (room > 0 ? extra : 0);
  left = start;
  for (const p of unusual) {
    if (room <= 0) break;
    const before = left;
    if (take(p)) room -= before - left;
  }
  const spent = start - left;
  if (unusual.length > 0) left -= Math.max(0, extra - spent);
  // Then evidence by words (errors before warnings), distinct lines only, evenly spread when they do not all fit.
  let allowance = Math.max(0, share - Math.max(0, spent - (unusual.length > 0 ? extra : 0)));
  const seen = new Set<string>();
  for (const tier of [STRONG_EVIDENCE, EVIDENCE]) {
    const found: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      tick();
      if (!keep[i] && tier.test(lines[i]!.text) && !seen.has(lines[i]!.text)) found.push(i);
    }
    for (const i of found) seen.add(lines[i]!.text);
    const total = found.reduce((a, i) => a + cost[i]!, 0);
    const step = total <= allowance ? 1 : total / Math.max(1, allowance);
    for (let k = 0; k < found.length && allowance > 0; k += step) {
      const i = found[Math.floor(k)]!;
      if (cost[i]! <= allowance && take(i)) allowance -= cost[i]!;
    }
  }
  const headRoom = left * 0.6;
  for (let i = 0, used = 0; i < lines.length && used < headRoom; i++) if (take(i)) used += cost[i]!;
  for (let i = lines.length - 1; i >= 0 && left > 0; i--) if (!keep[i] && !take(i)) break;
  const shown = new Set<number>();
  lines.forEach((l, i) => {
    if (keep[i]) shown.add(shapeOf(l, shape));
  });
  shown.delete(-1);
  const out: Line[] = [];
  let gap: Line[] = [];
  const closeGap = () => {
    if (gap.length > 0) out.push(gapLine(gap, gapDetail(gap, shown, shape), false));
    gap = [];
  };
  lines.forEach((l, i) => {
    tick();
    if (!keep[i]) {
      gap.push(l);
      add(counts, 'lines', l.lines - l.counted);
      return;
    }
    closeGap();
    out.push(l);
  });
  closeGap();
  return out;
}

function process(input: ProcessorInput): ProcessorOutput {
  const counts: Counts = {};
  const estimate = estimateFor(input);
  const tick = deadlineTick('text', input.expired);
  let lines = dedupeParagraphs(normalise(input, counts, tick), counts, tick);
  for (const line of lines) {
    tick();
    if (input.preserve.some((p) => p !== '' && line.text.includes(p))) line.keep = true;
  }
  if (input.level === 'aggressive') lines = cutCodeBlocks(lines, counts, tick);
  const target = input.level === 'aggressive' ? Math.floor(input.budget / 2) : input.budget;
  if (input.level !== 'lossless' && estimate(lines.map((l) => l.text).join('\n')) > target) {
    // At light, unusual lines stay inline while the output fits well under maxTokens.
    const extra = input.level === 'light' ? Math.max(0, Math.floor(input.maxTokens * 0.8) - target) : 0;
    const alone = lineAloneTokens(input.estimator, input.analysis);
    const shape = input.analysis.templates.group;
    lines = select(lines, target, estimate, counts, unusualLines(input, lines), extra, tick, alone, shape);
  }
  const text = keepPreserved(lines.map((l) => l.text).join('\n'), input.text, input.preserve);
  if (estimate(text) >= estimate(input.text)) return { text: input.text, omitted: {}, omissions: [] };
  return { text, omitted: counts, omissions: lines.flatMap((l) => (l.omission ? [l.omission] : [])) };
}

/** Text is the fallback kind: a low, constant confidence for any non-empty text. */
function sniff(analysis: TextAnalysis): number {
  return firstNonBlank(analysis) === -1 ? 0 : 0.1;
}

/** Text nobody claims may be any program's output, a runner's whose shape no sniffer knows among them. */
export const textProcessor: Processor = {
  kind: 'text',
  lineShaped: true,
  runOutput: true,
  foldsShapes: true,
  sniff,
  process,
};
