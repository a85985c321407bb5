// Same-shape runs (docs/GLOSSARY.md, Same-shape runs): consecutive lines, or
// consecutive blocks of up to 32 lines, that differ only in their
// volatile fields (timestamps, ids, counters, hashes, locations: the analysis
// record's templates) show their first line or block whole; the rest become
// one omission marker with the exact count and the varying values. It is the
// lossless level's (with the exact collapse): the marker names every line it stands for.
// Warnings (with their locations) fold only when what varies is a timestamp or
// counts in equal steps (`var_0` … `var_299` at `src/lib.rs:10` … `:309`), so
// the marker's first, last and count give every value; warnings about other
// things (other files, other names) stay. No error and no other evidence (a
// failure, a stack trace, a failing test, a summary, an outcome, a preserved
// item) is ever folded.
// A listing's runs fold exactly (`ls -la` rows differing in name and size):
// each varying field counts in equal steps or is listed value by value, so
// the marker gives back every line's fields.
import { EVIDENCE_FLAGS, LineFlag, Severity, severityOf } from '../engine/flags.js';
import type { TextAnalysis } from '../engine/index.js';
import { count, omittedLines } from '../processors/markers.js';
import { cutChars } from '../text/strings.js';
import { type Shortened, ShortenedText } from './shortened.js';

/** A text with lines taken out, and where each of its lines stands in the original. */
/** Longest block (in lines) whose repeats are recognised. */
const MAX_PERIOD = 32;
/** Fewest repeats of a line or block, the shown one included, for a run to fold. */
const MIN_REPEATS = 3;
/** Most later blocks of warnings whose locations a marker lists (past it, their range). */
export const MAX_LISTED = 40;
/** A fold must save at least this many characters beyond its marker's. */
const MIN_SAVED_CHARS = 40;

// Evidence is never folded, but for diagnostics and locations of warnings (see onlyCountersVary).
const NEVER_FOLDED = EVIDENCE_FLAGS & ~(LineFlag.Diagnostic | LineFlag.Location);
/** Lines that fold only when their varying fields are timestamps or counters. */
const WARNING_LIKE = LineFlag.Diagnostic | LineFlag.Location;

/** A run: lines [start, end) repeat the shape of their first `period` lines. */
export interface Run {
  readonly start: number;
  readonly end: number;
  readonly period: number;
  /** Whether it holds warnings (diagnostics or WARN lines), whose later locations its marker lists. */
  readonly warns: boolean;
  /** Positions in the block of lines never folded (an error recurring with the block): shown in every block. */
  readonly shown: readonly number[];
}

/** No position shown in every block. */
const NONE: readonly number[] = [];

/** Whether line i of a run is shown: in its first block, or at a shown position. */
const showsLine = (run: Run, i: number): boolean =>
  i < run.start + run.period || run.shown.includes((i - run.start) % run.period);

/**
 * Whether a field's values count in equal steps: the same text between the
 * numbers (`var_`, `:`), each number moving by one fixed step from value to
 * value (`10:5`, `11:5`, `12:5`). First, last and count then give every value.
 */
function countsEvenly(values: readonly string[]): boolean {
  const first = values[0]!.split(/(\d+)/);
  let step: number[] | null = null;
  let previous = first;
  for (let v = 1; v < values.length; v++) {
    const parts = values[v]!.split(/(\d+)/);
    if (parts.length !== first.length) return false;
    const moves: number[] = [];
    for (let p = 0; p < parts.length; p++) {
      if (p % 2 === 0) {
        if (parts[p] !== first[p]) return false;
      } else moves.push(Number(parts[p]) - Number(previous[p]));
    }
    if (step === null) step = moves;
    else if (moves.some((move, m) => move !== step![m])) return false;
    previous = parts;
  }
  return step?.some((move) => move !== 0) ?? false;
}

/**
 * First and last (or least and most) of one field over the folded lines, when
 * it varies; every value when `exact`. A field counting in equal steps, or listed
 * in turn, has a value on each line of the run: the marker's count gives theirs.
 */
function range(values: readonly string[], exact: boolean): string | null {
  const distinct = new Set(values);
  if (distinct.size < 2) return null;
  if (exact)
    return countsEvenly(values) ? `${values[0]} to ${values.at(-1)} in equal steps` : `in turn: ${values.join(', ')}`;
  if (countsEvenly(values)) return `${cutChars(values[0]!, 24)} to ${cutChars(values.at(-1)!, 24)} in equal steps`;
  if (values.every((v) => /^-?\d+(?:\.\d+)?$/.test(v))) {
    // A loop, not Math.min(...numbers): a run can hold a million lines, past the call stack.
    let least = 0;
    let most = 0;
    for (let i = 1; i < values.length; i++) {
      const n = Number(values[i]);
      if (n < Number(values[least])) least = i;
      if (n > Number(values[most])) most = i;
    }
    const min = values[least]!;
    const max = values[most]!;
    return `${count(distinct.size)} values, min ${cutChars(min, 24)}, max ${cutChars(max, 24)}`;
  }
  return `${count(distinct.size)} values, first ${cutChars(values[0]!, 24)}, last ${cutChars(values.at(-1)!, 24)}`;
}

/**
 * Where the later warnings of a run are: the words of each later block's first
 * location line that differ from the shown block's (`src/lib.rs:101:5`), when
 * there are at most MAX_LISTED; null otherwise.
 */
function locations(analysis: TextAnalysis, run: Run): string[] | null {
  if (!run.warns || (run.end - run.start) / run.period - 1 > MAX_LISTED) return null;
  for (let line = run.start; line < run.start + run.period; line++) {
    if ((analysis.classes.flags[line]! & LineFlag.Location) === 0 || run.shown.includes(line - run.start)) continue;
    const shown = analysis.line(line).split(' ');
    const listed: string[] = [];
    for (let i = line + run.period; i < run.end; i += run.period) {
      const varying = analysis
        .line(i)
        .split(' ')
        .filter((word, w) => word !== shown[w]);
      if (varying.length === 0) return null;
      listed.push(varying.join(' '));
    }
    return listed;
  }
  return null;
}

/**
 * The marker's words: how many more of the shape, and where the later warnings
 * are, or up to two fields that vary across the whole run.
 */
/** The volatile fields of the run's lines at `offset` in its period, each line's in order (the template kernel's spans). */
function runFields(analysis: TextAnalysis, run: Run, offset: number): string[][] {
  const rows: number[] = [];
  for (let i = run.start + offset; i < run.end; i += run.period) rows.push(i);
  const { spans, first } = analysis.volatileFields(rows, EVERY_FIELD);
  const { text } = analysis;
  return rows.map((_, r) => {
    const fields: string[] = [];
    for (let f = first[r]!; f < first[r + 1]!; f++) fields.push(text.slice(spans[2 * f], spans[2 * f + 1]));
    return fields;
  });
}

/** As many volatile fields as a line has. */
const EVERY_FIELD = 0x7fffffff;

function detail(analysis: TextAnalysis, run: Run, exact: boolean): string {
  const times = (run.end - run.start) / run.period - 1;
  const what = run.period === 1 ? 'line' : `${run.period}-line block`;
  const kept =
    run.shown.length === 0
      ? ''
      : ` but for ${run.shown.length === 1 ? 'its line' : 'its lines'} ${run.shown.map((at) => count(at + 1)).join(', ')}, shown each time`;
  const more = `${count(times)} more of the ${what} shown above${kept}`;
  const listed = locations(analysis, run);
  if (listed !== null) return `${more}, at ${listed.join(', ')}`;
  const varying: string[] = [];
  const most = exact ? Number.POSITIVE_INFINITY : 2;
  for (let offset = 0; offset < run.period && varying.length < most; offset++) {
    if (run.shown.includes(offset)) continue;
    const fields = runFields(analysis, run, offset);
    const width = fields[0]?.length ?? 0;
    for (let f = 0; f < width && varying.length < most; f++) {
      const summary = range(
        fields.map((v) => v[f] ?? ''),
        exact,
      );
      // The same values in two places (`asset[7]` and `file7.js`) are said once (but when exact).
      if (summary !== null && (exact || !varying.includes(summary))) varying.push(summary);
    }
  }
  return varying.length > 0 ? `${more}; varying: ${varying.join('; ')}` : more;
}

const isWarning = (f: number): boolean => (f & LineFlag.Diagnostic) !== 0 || severityOf(f) === Severity.Warn;

/** Per line, 1 when it may be folded: no error, no evidence but a warning's (see onlyCountersVary), not kept. */
function foldableLines(flags: Int32Array, keep: ReadonlySet<number>): Uint8Array {
  const foldable = new Uint8Array(flags.length);
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i]!;
    if ((f & NEVER_FOLDED) === 0 && severityOf(f) <= Severity.Warn) foldable[i] = 1;
  }
  for (const i of keep) if (i >= 0 && i < flags.length) foldable[i] = 0;
  return foldable;
}

const TIMESTAMP = /^(?:\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?)?|\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?)$/;

/**
 * A run holding warnings or locations folds only when each field that varies
 * is a timestamp or counts in equal steps: the same warning over time, or one
 * generated warning per counter, never warnings about different things.
 */
function onlyCountersVary(analysis: TextAnalysis, run: Run): boolean {
  for (let offset = 0; offset < run.period; offset++) {
    if (run.shown.includes(offset)) continue;
    const fields = runFields(analysis, run, offset);
    for (let f = 0; f < fields[0]!.length; f++) {
      const values = fields.map((v) => v[f] ?? '');
      if (values.every((v) => v === values[0])) continue;
      if (!values.every((v) => TIMESTAMP.test(v)) && !countsEvenly(values)) return false;
    }
  }
  return true;
}

/**
 * Maximal same-shape runs of lines [from, n), in line order and apart; each with
 * the shortest period (up to `longest`) that makes it longest. Inside a run's
 * first block, the runs of shorter periods come before it: the block is shown folded too.
 */
function* runsOf(
  analysis: TextAnalysis,
  foldable: Uint8Array,
  from = 0,
  n = analysis.lines.count,
  longest = MAX_PERIOD,
  exact = false,
): Generator<Run, void, undefined> {
  const shape = analysis.templates.group;
  const same = analysis.exact.group;
  const flags = analysis.classes.flags;
  for (let i = from; i < n; ) {
    let best: Run | null = null;
    let scanned = i + 1;
    // Lines [i, i + uniform) share one shape, all fold, and the next has another: a period
    // up to `uniform` stops there too, no longer than period 1 (1e6 blank lines: one scan, not 32).
    let uniform = 0;
    // The first block's never-folded positions and its other lines' warning bits, grown with the
    // period (one line a period, not the whole block again for each).
    const shownPrefix: number[] = [];
    let locatedPrefix = false;
    let warnsPrefix = false;
    for (let period = 1; period <= longest; period++) {
      let end = i + period;
      if (end > n) break;
      if (foldable[end - 1] === 0) shownPrefix.push(period - 1);
      else {
        locatedPrefix ||= (flags[end - 1]! & WARNING_LIKE) !== 0;
        warnsPrefix ||= isWarning(flags[end - 1]!);
      }
      if (period <= uniform) continue;
      // A run of this period needs its second block to start with the first's shape.
      if (end >= n || shape[end] !== shape[i]) continue;
      // Positions whose line is never folded are shown in every block; the block needs one that folds.
      if (shownPrefix.length === period) continue;
      const shown = shownPrefix.length === 0 ? NONE : shownPrefix.slice();
      let identical = true;
      let located = locatedPrefix;
      let warns = warnsPrefix;
      while (end < n && shape[end] === shape[end - period]) {
        const at = (end - i) % period;
        if (shown.length === 0 || !shown.includes(at)) {
          if (foldable[end] === 0) break;
          located ||= (flags[end]! & WARNING_LIKE) !== 0;
          warns ||= isWarning(flags[end]!);
        }
        identical &&= same[end] === same[end - period];
        end++;
      }
      scanned = Math.max(scanned, end);
      const sameShapeTo = end;
      // Whole periods only; identical repeats are the exact collapse's (lossless, shown once with a count).
      end = i + period + Math.floor((end - i - period) / period) * period;
      const uniformTo = period === 1 && shown.length === 0 && (sameShapeTo === n || shape[sameShapeTo] !== shape[i]);
      if (identical || (end - i) / period < MIN_REPEATS) {
        if (uniformTo) uniform = sameShapeTo - i;
        continue;
      }
      const run = { start: i, end, period, warns, shown };
      // Exact folds give every value back: located lines (a listing's paths) need not count evenly.
      if ((warns || (located && !exact)) && !onlyCountersVary(analysis, run)) continue;
      if (uniformTo) uniform = sameShapeTo - i;
      if (best === null || end - i > best.end - best.start) best = run;
    }
    if (best === null) {
      // Inside what was just scanned (identical repeats, or too few) a run can start only near its end:
      // skipping there keeps the scan linear.
      i = Math.max(i + 1, scanned - longest);
      continue;
    }
    if (best.period > 1)
      yield* runsOf(analysis, foldable, best.start, best.start + best.period, best.period - 1, exact);
    yield best;
    i = best.end;
  }
}

/** The same-shape runs foldShapes folds (those saving too little aside). Lines in `keep` are never folded. */
export function shapeRuns(analysis: TextAnalysis, keep: ReadonlySet<number> = new Set(), exact = false): Run[] {
  return [...new ShapeRuns(analysis, keep, exact)];
}

/**
 * The same-shape runs of a text, found in line order as a reader asks for
 * them and each found once: a reader that has seen enough (a floor already
 * past a budget) stops, and the next reads on from what was found.
 */
export class ShapeRuns implements Iterable<Run> {
  readonly #found: Run[] = [];
  readonly #rest: Iterator<Run, void>;
  #done = false;

  constructor(analysis: TextAnalysis, keep: ReadonlySet<number> = new Set(), exact = false) {
    const foldable = foldableLines(analysis.classes.flags, keep);
    this.#rest = runsOf(analysis, foldable, 0, analysis.lines.count, MAX_PERIOD, exact);
  }

  *[Symbol.iterator](): Iterator<Run> {
    for (let k = 0; ; k++) {
      if (k < this.#found.length) yield this.#found[k]!;
      else if (this.#done) return;
      else {
        const next = this.#rest.next();
        if (next.done) {
          this.#done = true;
          return;
        }
        this.#found.push(next.value);
        yield next.value;
      }
    }
  }
}

/**
 * A floor under the distinct milli-tokens of the text the runs fold to (each
 * distinct line once, as the pipeline counts them), from the runs alone: the
 * lines a fold certainly shows, copied with their breaks, each distinct one
 * counted once by its cost here (`milli`); markers are not counted, nor the
 * last line (its break may differ there) or lines in `skip` (rewritten there).
 * So a caller can tell a text is too big for lossless without writing a marker.
 * The count stops as soon as it passes `limit` (it is then still a floor, and
 * past the limit): a big text is told apart from its first runs.
 */
export function shownDistinctMilli(
  analysis: TextAnalysis,
  runs: Iterable<Run>,
  milli: Float64Array,
  skip: ReadonlySet<number>,
  limit = Number.POSITIVE_INFINITY,
): number {
  const n = analysis.lines.count;
  const group = analysis.exact.group;
  const counted = new Uint8Array(n);
  let sum = 0;
  const add = (i: number) => {
    const g = group[i]!;
    if (counted[g] === 1 || i === n - 1 || skip.has(i)) return;
    counted[g] = 1;
    sum += milli[i]!;
  };
  let line = 0;
  for (const run of runs) {
    for (; line < run.start + run.period; line++) add(line);
    for (const at of run.shown) for (let i = run.start + at + run.period; i < run.end; i += run.period) add(i);
    line = run.end;
    if (sum > limit) return sum;
  }
  for (; line < n; line++) add(line);
  return sum;
}

/**
 * The text with each same-shape run folded to its first line or block and a
 * marker, how many lines went, and where each line of the new text stands in
 * the original (`starts`, as for repeats of recent results: markers.ts
 * renumbered); null when nothing folds. Lines in `keep` are never folded.
 * `exact`: every varying field counts in equal steps or is listed in full (a listing's).
 */
export function foldShapes(
  analysis: TextAnalysis,
  keep: ReadonlySet<number> = new Set(),
  exact = false,
  runs: readonly Run[] = shapeRuns(analysis, keep, exact),
): Shortened | null {
  const { start, end, count: n } = analysis.lines;
  const shortened = new ShortenedText(analysis);
  for (const run of runs) {
    const hideFrom = run.start + run.period;
    // The run's lines after its first block: one marker for each stretch of hidden lines (the first
    // says what they are), the shown lines whole; numbered as lines of this text, renumbered later.
    const pieces: string[] = [];
    const pieceStarts: number[] = [];
    const pieceMarkers: number[] = [];
    let at = shortened.numberAt(hideFrom);
    let saved = 0;
    let hidden = 0;
    for (let i = hideFrom; i < run.end; ) {
      const lineEnd = (k: number) => (k + 1 < n ? start[k + 1]! : analysis.text.length);
      if (showsLine(run, i)) {
        pieces.push(analysis.text.slice(start[i], lineEnd(i)));
        pieceStarts.push(i++);
      } else {
        let to = i;
        while (to < run.end && !showsLine(run, to)) to++;
        const words = pieces.length === 0 ? detail(analysis, run, exact) : 'more of that shape';
        const after = to < n || end[to - 1]! < analysis.text.length ? '\n' : '';
        const marker = `${omittedLines(at, at + 1, words)}${after}`;
        saved += lineEnd(to - 1) - start[i]! - marker.length;
        pieces.push(marker);
        pieceMarkers.push(at);
        pieceStarts.push(i);
        hidden += to - i;
        i = to;
      }
      at++;
    }
    if (saved < MIN_SAVED_CHARS) continue;
    shortened.replace(hideFrom, run.end, pieces, pieceStarts, hidden);
    for (const marker of pieceMarkers) shortened.mark(marker);
  }
  return shortened.done();
}
