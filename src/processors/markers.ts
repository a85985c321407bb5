// squeeze's own line syntax, written and recognised in one place (docs/MARKERS.md).
// Every cut is marked and counted in one format, so a reader (or a model, or a
// program through parseSqueezeLine) can always tell what went, how much, and
// which original lines to ask for. Lines are numbered as in the original,
// 1-based and inclusive: the numbering retrieval's `start` uses.
//
//   [… lines 120–480 (361): 300 INFO, 61 other …]   an omission: those original lines are not shown
//   [… line 12: 70,002 characters, too long …]       the same for one line
//   [… lines 5, 9–40, 52 (34): 34 entries in src/ …] the same for lines apart (a summary of a directory
//                                                    whose entries are shown in part): named where they sum up
//   [×37 lines 5–41] <line>                          37 identical original lines, shown once
//   [… <anything else> …]                            a note: a summary or a count, standing for no lines
//   [×<anything else>] <line>                         a summary of lines omitted elsewhere, with an example
//   <text>[… 1,204 chars cut …]<text>                one original line with characters cut out
//   [terminal:exit 1 | 600 lines | <first line>]    the emergency level's one-line preview (docs/GLOSSARY.md, Previews), a note

import { CCR_TYPES } from '../types.js';
import { lineEndAt } from '../text/line-breaks.js';

import { count } from '../text/strings.js';
import type { Omission, PlacedOmission, Span } from '../types.js';

export type { Omission, PlacedOmission, Span };

export { count };

/** "1 line" / "2 lines" */
export function plural(n: number, unit: string, units = `${unit}s`): string {
  return `${count(n)} ${n === 1 ? unit : units}`;
}

/** "a, b" for a breakdown of counts, largest first: `300 INFO, 61 other`. */
function listed(breakdown: Readonly<Record<string, number>>): string {
  return Object.entries(breakdown)
    .filter(([, k]) => k > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([what, k]) => `${count(k)} ${what}`)
    .join(', ');
}

/**
 * The one way original lines are named: `lines 120–480 (361)` or `line 120`,
 * for the 0-based half-open range [from, to) (numbers shown 1-based inclusive).
 * `withCount` false leaves the count out: `lines 120–480`.
 */
export function lineSpan(from: number, to: number, withCount = true): string {
  if (to - from === 1) return `line ${count(from + 1)}`;
  return `lines ${count(from + 1)}–${count(to)}${withCount ? ` (${count(to - from)})` : ''}`;
}

/** Sorted, distinct 0-based line indexes as half-open runs [from, to). */
function runsOf(indexes: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const i of indexes) {
    const last = runs[runs.length - 1];
    if (last && last[1] === i) last[1] = i + 1;
    else runs.push([i, i + 1]);
  }
  return runs;
}

/**
 * Original lines that are not consecutive, named in one go: `lines 5, 9–40, 52 (34)`
 * (`lineSpan` when they are one run). `indexes` are 0-based, sorted and distinct.
 */
export function lineList(indexes: readonly number[]): string {
  return runList(runsOf(indexes));
}

/** Half-open runs [from, to), increasing and apart, named as `lineList` names them. */
function runList(runs: readonly (readonly [number, number])[]): string {
  if (runs.length === 1) return lineSpan(runs[0]![0], runs[0]![1]);
  const parts = runs.map(([from, to]) => (to - from === 1 ? count(from + 1) : `${count(from + 1)}–${count(to)}`));
  return `lines ${parts.join(', ')} (${count(runs.reduce((a, [from, to]) => a + to - from, 0))})`;
}

/** The marker for original lines not shown that are not consecutive: `[… lines 5, 9–40 (33): … …]`. */
export function omittedLineList(indexes: readonly number[], detail: string): string {
  return `[… ${lineList(indexes)}${detail === '' ? ' omitted' : `: ${detail}`} …]`;
}

/**
 * The marker for original lines [from, to) (0-based, `to` exclusive) not shown:
 * `[… lines 120–480 (361): 300 INFO, 61 other …]`. `detail` is a breakdown of
 * counts (largest first) or a phrase; nothing says `omitted`.
 */
export function omittedLines(from: number, to: number, detail: Readonly<Record<string, number>> | string = {}): string {
  const what = typeof detail === 'string' ? detail : listed(detail);
  return `[… ${lineSpan(from, to)}${what === '' ? ' omitted' : `: ${what}`} …]`;
}

/**
 * A count of things left out that are not whole original lines (JSON items,
 * HTML blocks, characters): `[… 1,204 keys omitted: 1,198 x, 6 y …]`.
 */
export function omission(
  n: number,
  unit: string,
  breakdown: Readonly<Record<string, number>> = {},
  units = `${unit}s`,
): string {
  const parts = listed(breakdown);
  return `[… ${plural(n, unit, units)} omitted${parts === '' ? '' : `: ${parts}`} …]`;
}

/**
 * Items [from, to) of the JSON array (or keyed records) at `path`, left out,
 * by their 0-based JSON indexes: `[… $.results[3–482] (480 items): 12 error …]`
 * (an object's entries by their position in it).
 */
export function jsonItems(
  path: string,
  from: number,
  to: number,
  unit: string,
  breakdown: Readonly<Record<string, number>> = {},
): string {
  const where = to - from === 1 ? `${path}[${from}]` : `${path}[${from}–${to - 1}]`;
  const parts = listed(breakdown);
  return `[… ${where} (${plural(to - from, unit)})${parts === '' ? ' omitted' : `: ${parts}`} …]`;
}

/** Original lines [from, to), all equal to `line`, shown once: `[×37 lines 5–41] line`. */
export function collapsedLines(from: number, to: number, line: string): string {
  return `[×${count(to - from)} ${lineSpan(from, to, false)}] ${line}`;
}

/** A note that stands for no lines (a summary, a count of what other markers cover): `[… text …]`. */
export function note(text: string): string {
  return `[… ${text} …]`;
}

/** Characters cut out of a line that is otherwise shown: `[… 1,204 chars cut …]`. */
export function charsCut(n: number): string {
  return `[… ${count(n)} chars cut …]`;
}

/** What a line of squeeze's output is, when it is not an original line. */
export type SqueezeLine =
  /** The original lines of `spans` (1-based `start`, `count`) are not shown; `count` is their total. */
  | { readonly type: 'omission'; readonly spans: readonly Span[]; readonly count: number; readonly text: string }
  /** Original lines `start`..`start + count - 1`, each equal to `line`, shown once. */
  | {
      readonly type: 'collapse';
      readonly start: number;
      readonly count: number;
      readonly line: string;
      readonly text: string;
    }
  /** A summary or count standing for no lines of its own. */
  | { readonly type: 'note'; readonly text: string }
  /** One original line with characters cut out: `parts` are its pieces shown, in order. */
  | { readonly type: 'cut'; readonly parts: readonly string[]; readonly text: string }
  /**
   * A line squeeze adds after the result (standing for no original lines):
   * the retrieval `marker` (`<<<CCR:id|type|size>>>`), the `retrieval` hints
   * (`[original: …]`), the `spill` file (`[also saved: …]`), the `verdict`
   * (`[verdict: …]`), the DSH plugin's `level` note (`[squeeze: …]`) and its
   * `full-output` note (`[full output: …]`, `[full stderr: …]`).
   */
  | { readonly type: 'notice'; readonly role: NoticeRole; readonly text: string };

export type NoticeRole =
  | 'marker'
  | 'retrieval'
  | 'spill'
  | 'verdict'
  | 'level'
  | 'full-output'
  | 'encoding'
  | 'terminal-codes';

const N = String.raw`(\d{1,3}(?:,\d{3})*)`;
const M = String.raw`\d{1,3}(?:,\d{3})*`;
const OMISSION = new RegExp(String.raw`^\[… lines? (${M}(?:–${M})?(?:, ${M}(?:–${M})?)*)(?: \(${N}\))?[: ]`);
const COLLAPSE = new RegExp(String.raw`^\[×${N} lines? ${N}(?:–${N})?\] `);
const CUT = /\[… \d{1,3}(?:,\d{3})* (?:chars cut|more characters) …\]/g;
const PREVIEW = new RegExp(String.raw`^\[(?:${CCR_TYPES.join('|')}):.*\]$`);
const CCR_MARKER = /^<<<CCR:[0-9a-f]{24}\|[a-z]+\|\d+>>>$/;
/** The notice's bracketed lines, by their opening words. */
const NOTICE_LINES: readonly (readonly [string, NoticeRole])[] = [
  ['[original: ', 'retrieval'],
  ['[also saved: ', 'spill'],
  ['[verdict: ', 'verdict'],
  ['[squeeze: ', 'level'],
  ['[full output: ', 'full-output'],
  ['[full output not used: ', 'full-output'],
  ['[full stderr: ', 'full-output'],
  ['[full stderr not used: ', 'full-output'],
  ['[not UTF-8: ', 'encoding'],
  ['[terminal codes removed: ', 'terminal-codes'],
];

/**
 * The notice's line for an output shown without the original's colour and
 * cursor codes (src/pipeline/ansi.ts).
 */
export const TERMINAL_CODES_NOTE = '[terminal codes removed: colour and cursor; the stored original keeps them]';

/**
 * The line under a result whose input was not all UTF-8: what the output
 * shows in place of the bytes it could not decode, and that the stored
 * original keeps them.
 */
export function notUtf8Note(sequences: number): string {
  return `[not UTF-8: ${plural(sequences, 'byte sequence')} shown as U+FFFD; the stored original keeps the exact bytes]`;
}
/**
 * Notes other than `[… …]`: the JSON processor's header (`[json {3 keys}]`,
 * `[json lines …]`, `[json array with 12,000 items, …]`) and a retrieval
 * page's last line (`[lines 1–812 of 4,001; next: …]`, `[line 1 of 3, its first …]`).
 */
const OTHER_NOTE = new RegExp(String.raw`^\[(?:json |lines? ${M}(?:–${M})? of ${M}[;,] ).*\]$`);

const toNumber = (s: string): number => Number(s.replaceAll(',', ''));

/** `5, 9–40, 52` as spans, or null when they are not increasing and apart. */
function spansOf(list: string): Span[] | null {
  const spans: Span[] = [];
  for (const part of list.split(', ')) {
    const [a, b] = part.split('–');
    const start = toNumber(a!);
    const end = b === undefined ? start : toNumber(b);
    const previous = spans[spans.length - 1];
    if (end < start || start < 1 || (previous && start <= previous.start + previous.count)) return null;
    spans.push({ start, count: end - start + 1 });
  }
  return spans;
}

/**
 * Recognises a line of squeeze's own syntax and the original lines it stands
 * for; null for any other line (an original line). A marker's numbers are
 * the original's line numbers, 1-based: what retrieval's `start` takes.
 */
export function parseSqueezeLine(line: string): SqueezeLine | null {
  if (line.startsWith('[… ') && line.endsWith(' …]')) {
    const m = OMISSION.exec(line);
    const spans = m ? spansOf(m[1]!) : null;
    if (spans) {
      const total = spans.reduce((a, s) => a + s.count, 0);
      if (m![2] === undefined ? total === 1 || spans.length === 1 : toNumber(m![2]) === total) {
        return { type: 'omission', spans, count: total, text: line };
      }
    }
    if (!line.slice(3, -3).includes('…]')) return { type: 'note', text: line };
  }
  if (line.startsWith('[×')) {
    const m = COLLAPSE.exec(line);
    if (m) {
      const start = toNumber(m[2]!);
      const end = m[3] === undefined ? start : toNumber(m[3]);
      if (end - start + 1 === toNumber(m[1]!)) {
        return { type: 'collapse', start, count: end - start + 1, line: line.slice(m[0].length), text: line };
      }
    }
    if (line.includes('] ') || line.endsWith(']')) return { type: 'note', text: line };
  }
  if (PREVIEW.test(line) || OTHER_NOTE.test(line)) return { type: 'note', text: line };
  if (CCR_MARKER.test(line)) return { type: 'notice', role: 'marker', text: line };
  if (line.endsWith(']')) {
    for (const [opening, role] of NOTICE_LINES)
      if (line.startsWith(opening)) return { type: 'notice', role, text: line };
  }
  CUT.lastIndex = 0;
  if (CUT.test(line)) return { type: 'cut', parts: line.split(CUT), text: line };
  return null;
}

/** True when the line is squeeze's own (a marker, a collapse, a note, a cut line, a notice line), not an original line. */
export function isSqueezeLine(line: string): boolean {
  return parseSqueezeLine(line) !== null;
}

/** The omission `omittedLines(from, to, …)` states. */
export function linesOmission(from: number, to: number): PlacedOmission {
  return { start: from + 1, count: to - from, at: from };
}

/** The omissions `omittedLineList(indexes, …)` states, its marker sitting before line `at`. */
export function lineListOmissions(indexes: readonly number[], at: number): PlacedOmission[] {
  return runsOf(indexes).map(([from, to]) => ({ start: from + 1, count: to - from, at }));
}

/** The omission `collapsedLines(from, to, …)` states. */
export function collapseOmission(from: number, to: number): PlacedOmission {
  return { start: from + 1, count: to - from, collapsed: true, at: from };
}

/**
 * The omissions of an output over a text whose lines `marked` are markers
 * themselves, each naming its own line (a long line's, a same-shape fold's, a
 * reference to an earlier result; renumbering makes them the original lines
 * they stand for): those the output shows, not covered by its own omissions,
 * are omissions too, in place.
 */
export function withShownMarkers(omissions: readonly PlacedOmission[], marked: ReadonlySet<number>): PlacedOmission[] {
  if (marked.size === 0) return [...omissions];
  const spans = omissions.map((o) => [o.start - 1, o.start - 1 + o.count] as const).sort((x, y) => x[0] - y[0]);
  const shown: number[] = [];
  let s = 0;
  let reach = 0;
  for (const line of [...marked].sort((x, y) => x - y)) {
    for (; s < spans.length && spans[s]![0] <= line; s++) reach = Math.max(reach, spans[s]![1]);
    if (line >= reach) shown.push(line);
  }
  const out: PlacedOmission[] = [];
  let next = 0;
  for (const omission of omissions) {
    for (; next < shown.length && shown[next]! < omission.at; next++)
      out.push(linesOmission(shown[next]!, shown[next]! + 1));
    out.push(omission);
  }
  for (; next < shown.length; next++) out.push(linesOmission(shown[next]!, shown[next]! + 1));
  return out;
}

/** Lines of a shortened text (line k standing for original lines [starts[k], starts[k + 1])) that are one marked line of the original each. */
export function carriedMarks(marked: ReadonlySet<number>, starts: Int32Array): Set<number> {
  const out = new Set<number>();
  if (marked.size === 0) return out;
  for (let k = 0; k + 1 < starts.length; k++)
    if (starts[k + 1]! - starts[k]! === 1 && marked.has(starts[k]!)) out.add(k);
  return out;
}

/**
 * Omissions stated over a text whose line i stands for original lines
 * [starts[i], starts[i + 1]) (runs folded, blocks seen earlier made one
 * reference line), in the original's numbers: what `renumbered` does to the markers.
 */
export function renumberedOmissions(omissions: readonly PlacedOmission[], starts: Int32Array): PlacedOmission[] {
  return omissions.map((o) => {
    const start = starts[o.start - 1]! + 1;
    const count = starts[o.start - 1 + o.count]! - start + 1;
    return { ...o, start, count, at: starts[o.at]! };
  });
}

/**
 * The original lines an output leaves out, read from its squeeze lines in
 * order of the markers (a list marker's lines sit where its summary does). The
 * markers are the output's own statement of its cuts, so data and text cannot
 * disagree. Given the original, the output is walked against its lines (the
 * one line-break rule): a line that is the original's line at that place is
 * shown, not a marker, even when it looks like one (a log of squeeze's output).
 */
export function omissionsOf(output: string, original?: string): Omission[] {
  const spans: Omission[] = [];
  const walk = original === undefined ? undefined : new OriginalWalk(original);
  // Lines end where the pipeline's do (LF, CRLF, a lone CR): a fold of a CR-only text puts its marker after a CR.
  for (const raw of output.split(/\r\n|\r|\n/)) {
    if (walk?.shows(raw)) continue;
    const parsed = parseSqueezeLine(raw);
    if (parsed?.type === 'omission') {
      for (const span of parsed.spans) spans.push(span);
      walk?.omit(parsed.spans);
    } else if (parsed?.type === 'collapse') {
      spans.push({ start: parsed.start, count: parsed.count, collapsed: true });
      walk?.omit([parsed]);
    } else if (parsed?.type === 'cut') walk?.advance(1);
  }
  return spans;
}

/** A position in the original's lines, moved along as an output is read. */
class OriginalWalk {
  private readonly lines: string[] = [];
  private readonly omitted = new Set<number>();
  private at = 0;
  /** Line text to its 0-based positions, built on the first line met out of place. */
  private index: Map<string, number[]> | undefined;

  constructor(original: string) {
    for (let from = 0; from < original.length; ) {
      const { end, next } = lineEndAt(original, from);
      this.lines.push(original.slice(from, end));
      from = next;
    }
  }

  /** Whether `line` is the next original line not omitted (then past it); a line found later re-synchronises the walk. */
  shows(line: string): boolean {
    this.skip();
    if (this.lines[this.at] === line) {
      this.at++;
      return true;
    }
    if (parseSqueezeLine(line) !== null) return false;
    // Not squeeze's and not next: an original line shown out of the walk's order (the emergency form's kept lines).
    if (this.index === undefined) {
      this.index = new Map();
      for (const [i, text] of this.lines.entries()) {
        const at = this.index.get(text);
        if (at === undefined) this.index.set(text, [i]);
        else at.push(i);
      }
    }
    const later = this.index.get(line)?.find((i) => i >= this.at);
    if (later !== undefined) this.at = later + 1;
    return true;
  }

  omit(spans: readonly Span[]): void {
    for (const span of spans) for (let i = span.start - 1; i < span.start - 1 + span.count; i++) this.omitted.add(i);
  }

  advance(n: number): void {
    this.skip();
    this.at += n;
  }

  private skip(): void {
    while (this.omitted.has(this.at)) this.at++;
  }
}

/**
 * The output with every line number in its squeeze lines moved to another
 * numbering: line i (0-based) of the text the processor saw stands for lines
 * [starts[i], starts[i + 1]) of the original (after blocks seen in earlier
 * results became one reference line each). Original lines are left alone.
 */
export function renumbered(output: string, starts: Int32Array): string {
  const runOf = (from: number, to: number): [number, number] => [starts[from]!, starts[to]!];
  const mapped = (from: number, to: number): string => {
    const [a, b] = runOf(from, to);
    return lineSpan(a, b, false);
  };
  // The lines a marker's words refer to (`repeat lines 3–14`, a shape `in lines 14–880`), not
  // numbers in quoted original text.
  const words = (text: string) =>
    text.replace(
      new RegExp(`^(: repeat | of this shape in )lines? ${N}(?:–${N})?`),
      (_m, lead: string, a: string, b?: string) => `${lead}${mapped(toNumber(a) - 1, toNumber(b ?? a))}`,
    );
  // Split where the pipeline's lines end (LF, CRLF, a lone CR), the breaks kept at the odd places.
  return output
    .split(/(\r\n|\r|\n)/)
    .map((line, at) => {
      if (at % 2 === 1) return line;
      const parsed = parseSqueezeLine(line);
      if (parsed === null || parsed.type === 'cut' || parsed.type === 'notice') return line;
      if (parsed.type === 'collapse') {
        const [a, b] = runOf(parsed.start - 1, parsed.start - 1 + parsed.count);
        return collapsedLines(a, b, parsed.line);
      }
      if (parsed.type === 'note') {
        const shape = /^\[×[\d,]+/.exec(line);
        return shape ? `${shape[0]}${words(line.slice(shape[0].length))}` : line;
      }
      const prefix = OMISSION.exec(line)![0].slice(0, -1);
      const runs: [number, number][] = [];
      for (const span of parsed.spans) {
        const [a, b] = runOf(span.start - 1, span.start - 1 + span.count);
        const last = runs[runs.length - 1];
        if (last && last[1] === a) last[1] = b;
        else runs.push([a, b]);
      }
      const head = runList(runs);
      return `[… ${head}${words(line.slice(prefix.length))}`;
    })
    .join('');
}
