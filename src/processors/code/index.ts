// The code processor: source files, as DSH's `read` tool shows them
// (`<path>…</path>` / `<type>file</type>` / `<content>` / `N: line`… / footer)
// or as `cat` prints them. Lossless returns the text unchanged: the model asked
// for that file (see Processor.losslessUpToMax). Light and aggressive give an
// outline: imports, declarations, signatures and the first line of each doc
// comment stay byte-identical with their `N: ` prefix, so any shown line can
// be an edit's old_string; bodies fold into one marker naming their exact
// lines (the result's, after the read's header lines) and how to read them
// (the file's line numbers), e.g.
// `[… lines 231–263 (33): body of foo — read offset=228 limit=33 …]`.
import type { Omitted, Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import { FEATURE } from '../../engine/contract.js';
import type { TextAnalysis } from '../../engine/index.js';
import { nonBlankHead } from '../head.js';
import { LANGS, langOf, LONG_LINE, scan } from './scan.js';
import { type Fold, outline } from './outline.js';
import { READ_WINDOW } from './read-window.js';
import { checkDeadline, deadlineTick, ProcessorError } from '../errors.js';
import { splitLines } from '../fit.js';
import { estimateFor, lineAloneTokens } from '../costs.js';
import { BLAME_PREFIX } from '../blame.js';
import { charsCut, linesOmission, omittedLines, type PlacedOmission } from '../markers.js';
import { utf8Bytes } from '../../text/strings.js';

const READ_OPEN = '<path>';
const READ_HEAD = '</path>\n<type>file</type>\n<content>\n';
const READ_CLOSE = '\n</content>';

/**
 * The read tool's envelope, `<path>P</path>`, `<type>file</type>`,
 * `<content>`, the numbered lines, `</content>`, taken apart by its fixed
 * ends (no regex over a body of megabytes): the path (no line break in it) and the body.
 */
function readEnvelope(
  text: string,
): { readonly path: string; readonly body: string; readonly endsWithBreak: boolean } | null {
  // A read saved to a file or piped on usually gains a final line break after `</content>`.
  const endsWithBreak = text.endsWith(`${READ_CLOSE}\n`);
  const end = text.length - (endsWithBreak ? 1 : 0);
  if (!text.startsWith(READ_OPEN) || !text.startsWith(READ_CLOSE, end - READ_CLOSE.length)) return null;
  const pathEnd = text.indexOf('\n') - '</path>'.length;
  if (pathEnd < READ_OPEN.length || !text.startsWith(READ_HEAD, pathEnd)) return null;
  const bodyStart = pathEnd + READ_HEAD.length;
  const bodyEnd = end - READ_CLOSE.length;
  // `<content>\n</content>` has one break where the envelope needs two (the body's empty line between).
  if (bodyEnd < bodyStart) return null;
  return { path: text.slice(READ_OPEN.length, pathEnd), body: text.slice(bodyStart, bodyEnd), endsWithBreak };
}
const NUMBERED = /^(\d+): /;
/** Characters of a long (minified) line shown before its cut. */
const CUT_WINDOW = 160;

interface Source {
  /** Lines before the code (the read envelope), kept verbatim. */
  readonly head: readonly string[];
  /** Output lines of the code itself, with their `N: ` prefix when read. */
  readonly raw: readonly string[];
  /** The code lines without prefix, as the scanner sees them. */
  readonly code: readonly string[];
  /** File line number of each code line. */
  readonly numbers: readonly number[];
  readonly tail: readonly string[];
  readonly path: string | undefined;
  readonly read: boolean;
}

/**
 * The file's lines of a `git blame` output, each without its commit, author
 * and date (BLAME_PREFIX), when every line has them (an empty last line apart), so
 * brackets, indentation and names are the file's own; else null.
 */
function withoutBlame(raw: readonly string[]): string[] | null {
  const code = new Array<string>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const prefix = BLAME_PREFIX.exec(raw[i]!);
    if (prefix) code[i] = raw[i]!.slice(prefix[0].length);
    else if (i === raw.length - 1 && raw[i] === '') code[i] = '';
    else return null;
  }
  return code;
}

function parse(text: string): Source {
  const read = readEnvelope(text);
  if (!read) {
    const raw = splitLines(text);
    const code = withoutBlame(raw) ?? raw;
    return { head: [], raw, code, numbers: raw.map((_, i) => i + 1), tail: [], path: undefined, read: false };
  }
  const body = read.body.split(/\r\n?|\n/);
  const footer = body.length >= 2 && body.at(-2) === '' && body.at(-1)!.startsWith('(') ? 2 : body.length === 1 ? 1 : 0;
  const raw = body.slice(0, body.length - footer);
  const numbers: number[] = [];
  const code: string[] = [];
  for (const line of raw) {
    const m = NUMBERED.exec(line);
    if (!m) throw new ProcessorError('code', 'a read line without its line number');
    numbers.push(Number(m[1]));
    code.push(line.slice(m[0].length));
  }
  const head = [`<path>${read.path}</path>`, '<type>file</type>', '<content>'];
  return {
    head,
    raw,
    code,
    numbers,
    tail: [...body.slice(body.length - footer), '</content>', ...(read.endsWithBreak ? [''] : [])],
    path: read.path,
    read: true,
  };
}

/** One output line and the code lines (0-based, inclusive) it stands for. */
interface Shown {
  readonly text: string;
  readonly from: number;
  readonly to: number;
  readonly fold?: Fold;
  /** A minified line shown cut to its first characters. */
  readonly cut?: true;
}

function lay(source: Source, folds: readonly Fold[]): Shown[] {
  const { raw, code, numbers, read } = source;
  // Markers name the original's lines (after the read envelope's head); the read hint, the file's.
  const at = source.head.length;
  const out: Shown[] = [];
  let f = 0;
  for (let i = 0; i < raw.length; i++) {
    const fold = folds[f];
    if (fold && fold.from === i) {
      const first = numbers[fold.from]!;
      const n = fold.to - fold.from + 1;
      const hint = read ? ` — read offset=${first} limit=${n}` : '';
      out.push({ text: omittedLines(at + i, at + fold.to + 1, `${fold.label}${hint}`), from: i, to: fold.to, fold });
      i = fold.to;
      f++;
      continue;
    }
    const line = code[i]!;
    // A minified line: its first characters, the cut marked with its size (a cut line, docs/MARKERS.md).
    if (line.length > LONG_LINE) {
      const prefix = raw[i]!.length - line.length;
      out.push({
        text: `${raw[i]!.slice(0, prefix + CUT_WINDOW)}${charsCut(line.length - CUT_WINDOW)}`,
        from: i,
        to: i,
        cut: true,
      });
    } else out.push({ text: raw[i]!, from: i, to: i });
  }
  return out;
}

/**
 * Folds that keep the output under `ceiling`: when the outline is still over
 * it (a huge file of top-level lines, a log read as a file), its head and tail
 * stay and one marker stands for the middle.
 */
function fitted(
  source: Source,
  folds: Fold[],
  ceiling: number,
  estimate: (text: string) => number,
  alone: readonly number[] | null,
): Fold[] {
  const shown = lay(source, folds);
  // A line shown whole costs what the analysis says it does alone: only markers and cut lines are estimated.
  const at = source.head.length;
  const costs = shown.map((s) => (alone && !s.fold && !s.cut ? alone[at + s.from]! : estimate(s.text)) + 1);
  const frame = estimate([...source.head, ...source.tail].join('\n'));
  if (frame + costs.reduce((a, b) => a + b, 0) <= ceiling) return folds;
  const room = Math.max(0, ceiling - frame - 40) / 2;
  let head = 0;
  for (let spent = 0; head < shown.length && spent + costs[head]! <= room; head++) spent += costs[head]!;
  let tail = shown.length;
  for (let spent = 0; tail > head + 1 && spent + costs[tail - 1]! <= room; tail--) spent += costs[tail - 1]!;
  if (tail <= head) return folds;
  const middle: Fold = {
    from: shown[head]!.from,
    to: shown[tail - 1]!.to,
    label: 'cut to fit the size limit',
    omitted: 'lines over the size limit',
  };
  return [...folds.filter((f) => f.to < middle.from || f.from > middle.to), middle].sort((a, b) => a.from - b.from);
}

function render(source: Source, folds: readonly Fold[], omitted: Omitted, omissions: PlacedOmission[]): string {
  const add = (what: string, n: number) => (omitted[what] = (omitted[what] ?? 0) + n);
  const shown = lay(source, folds);
  const at = source.head.length;
  for (const s of shown) {
    if (s.fold) {
      add(s.fold.omitted, s.to - s.from + 1);
      omissions.push(linesOmission(at + s.from, at + s.to + 1));
    } else if (s.cut) add('characters of long lines', source.code[s.from]!.length - CUT_WINDOW);
  }
  return [...source.head, ...shown.map((s) => s.text), ...source.tail].join('\n');
}

/**
 * Each line's tokens alone from the analysis (no estimate per line), when the
 * analysis splits the text into exactly the source's lines; else null.
 */
function linesAlone(input: ProcessorInput, source: Source): number[] | null {
  const { analysis } = input;
  const lines = source.head.length + source.raw.length + source.tail.length;
  if (analysis.text !== input.text || analysis.lines.count !== lines) return null;
  return lineAloneTokens(input.estimator, analysis);
}

function process(input: ProcessorInput): ProcessorOutput {
  if (input.level === 'lossless') return { text: input.text, omitted: {}, omissions: [] };
  const tick = deadlineTick('code', input.expired);
  const source = parse(input.text);
  tick();
  const found = scan(source.code, langOf(source.path, source.code));
  checkDeadline('code', input.expired);
  const preserved = input.preserve.filter((p) => p !== '');
  const kept = (i: number) => preserved.some((p) => source.raw[i]!.includes(p));
  const omitted: Omitted = {};
  const estimate = estimateFor(input);
  const folds = fitted(
    source,
    outline(source.code, found, input.level === 'aggressive', kept, tick, source.numbers[0] ?? 1),
    input.maxTokens,
    estimate,
    linesAlone(input, source),
  );
  checkDeadline('code', input.expired);
  const omissions: PlacedOmission[] = [];
  const text = render(source, folds, omitted, omissions);
  if (estimate(text) >= estimate(input.text)) return { text: input.text, omitted: {}, omissions: [] };
  return { text, omitted, omissions };
}

/** A read whose lines are within the read tool's window: the model asked for it, and the tool bounded it. */
function shownWhole(text: string): boolean {
  const read = readEnvelope(text);
  if (!read) return false;
  const body = read.body.split(/\r\n?|\n/);
  let lines = 0;
  let bytes = 0;
  for (const line of body) {
    const numbered = NUMBERED.exec(line);
    if (!numbered) continue;
    lines++;
    bytes += utf8Bytes(line.slice(numbered[0].length)) + (lines > 1 ? 1 : 0);
  }
  return lines > 0 && lines <= READ_WINDOW.lines && bytes <= READ_WINDOW.bytes;
}

const DECLARATION =
  /^\s*(?:(?:export|pub(?:\([^)]*\))?|public|private|protected|static|async|abstract|final|default|declare)\s+)*(?:import|from|function|class|interface|enum|struct|trait|impl|fn|func|def|const|let|var|type|package|use|module|namespace|#include|#define)\b/;

/**
 * A read envelope is certain. Plain source (`cat` output) is claimed when
 * declarations recur and most lines end as code lines do.
 */
function sniff(analysis: TextAnalysis): number {
  const { text } = analysis;
  // The read tool's envelope is its opening characters, not a line shape.
  if (
    text.startsWith('<path>') &&
    (readEnvelope(text.slice(0, 4096)) !== null ||
      /^<path>[^\n]*<\/path>\n<type>file<\/type>\n<content>\n\d+: /.test(text))
  )
    return 0.99;
  const picked = nonBlankHead(analysis, 300, 200);
  if (picked.length < 5) return 0;
  const { shape } = analysis.features;
  const share = (test: (i: number) => boolean) => picked.filter(test).length / picked.length;
  const shaped = (bit: number) => share((i) => (shape[i]! & bit) !== 0);
  // git blame: each line a file's line under its commit, author, date and number.
  if (share((i) => BLAME_PREFIX.test(analysis.headLine(i))) >= 0.9) return 0.7;
  const hunk = (i: number) =>
    ((shape[i]! & FEATURE.AT_AT) !== 0 && analysis.headLine(i).startsWith('@@ ')) ||
    ((shape[i]! & FEATURE.DIFF_WORD) !== 0 && analysis.headLine(i).startsWith('diff --git '));
  // Timestamps at line starts (logs), markup lines (HTML with inline scripts) and hunks (diffs of code) are not source.
  if (shaped(FEATURE.DATED) > 0.1 || shaped(FEATURE.MARKUP) > 0.1 || share(hunk) > 0) return 0;
  const declarations = share((i) => DECLARATION.test(analysis.headLine(i)));
  return declarations >= 0.05 && shaped(FEATURE.CODE_END) >= 0.5 ? 0.7 : 0;
}

export const codeProcessor: Processor = {
  kind: 'code',
  lineShaped: true,
  losslessUpToMax: true,
  shownWhole,
  tools: { read: 'file' },
  // A file's lines with who last changed each: what the model asked to see of that file, like a read.
  commands: ['git blame', 'git annotate'],
  // `cat x.json` is the json processor's; a `read` of any file is code.
  fileExtensions: Object.keys(LANGS).filter((ext) => ext !== 'json' && ext !== 'jsonc'),
  sniff,
  process,
};
