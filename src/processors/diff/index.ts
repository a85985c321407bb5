// The diff processor: `git diff`, `git show`, `diff -u`, any unified diff.
// Every file header (`diff --git`, index, mode and rename lines, `---`/`+++`),
// every hunk header and every changed line of a hand-written file stays; runs
// of context lines fold into a marker naming their lines in the text (the hunk
// header above gives their file lines), where the marker costs less. A
// generated file (lockfile, minified, snapshot, build output, or marked
// generated) keeps its header and becomes `+N −M lines`; the biggest
// hand-written files, when the result is still over maxTokens, show the code
// they add (a new file, an added hunk of a `-U0` diff) as its outline
// (imports, declarations, signatures; each body `+N −0`) where that brings the
// result under, else keep their file and hunk headers, each hunk's body
// becoming `+N −M lines`; still over at aggressive, the biggest files keep
// their file headers and their first hunk headers only (the others counted in
// one `+N −M lines`), then their `diff --git` lines alone. A preserved line
// stays wherever it is (the counts are split around it). Lines
// outside files (`git show`'s commit header and message) stay. Lossless
// returns the text unchanged.
import type { Omitted, Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import { FEATURE } from '../../engine/contract.js';
import type { TextAnalysis } from '../../engine/index.js';
import { largestFitting, textLines } from '../fit.js';
import { count, linesOmission, omittedLines, type PlacedOmission, plural } from '../markers.js';
import { OutputCosts } from '../costs.js';
import { checkDeadline, deadlineTick, type Tick } from '../errors.js';
import { outline } from '../code/outline.js';
import { langOf, scan } from '../code/scan.js';
import { preservedLines, runsAround } from '../log/priority.js';
import { FILE_START, historySkeleton, HUNK } from './skeleton.js';

const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'go.sum',
  'Gemfile.lock',
  'composer.lock',
  'mix.lock',
  'flake.lock',
  'packages.lock.json',
  'gradle.lockfile',
  'Podfile.lock',
  'pubspec.lock',
]);
const GENERATED_PATH =
  /(?:^|\/)(?:dist|build|vendor|__snapshots__|node_modules)\/|\.(?:min\.(?:js|css|mjs)|map|snap|pb\.go|lock)$|[._-]generated\.|_pb2\.py$/;
const GENERATED_MARK =
  /@generated|DO NOT EDIT|(?:this|the) file (?:is|was) (?:auto(?:matically)?[- ]?)?generated|auto-?generated (?:file|code)/i;
/** Context lines a run must have to fold, by level; a run also folds only when its marker costs less. */
const FOLD_CONTEXT = { light: 2, aggressive: 1 } as const;

interface Hunk {
  readonly header: number;
  readonly from: number;
  readonly to: number;
  /** Width of the +/- prefix: 1, or the number of parents of a combined diff. */
  readonly width: number;
}

interface FileDiff {
  readonly path: string;
  /** Its `diff --git` (or `diff -u`, …) line, -1 for a section opened by `---`/`+++` alone. */
  readonly start: number;
  readonly hunks: Hunk[];
}

/** The file sections and their hunks, by line index. Lines outside hunks are headers or commit text. */
function parse(lines: readonly string[]): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (
      FILE_START.test(line) ||
      (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ') && (!file || file.hunks.length > 0))
    ) {
      const named =
        /^diff --git (?:"?a\/.*?"? )?"?b\/(.*?)"?$/.exec(line)?.[1] ?? /^diff --(?:cc|combined) (.*)$/.exec(line)?.[1];
      file = { path: named ?? '', start: FILE_START.test(line) ? i : -1, hunks: [] };
      files.push(file);
      if (!FILE_START.test(line)) i--;
      continue;
    }
    if (file && file.path === '' && /^(?:\+\+\+|---) /.test(line)) {
      const path = line
        .slice(4)
        .replace(/\t.*$/, '')
        .replace(/^[ab]\//, '');
      if (path !== '/dev/null') (file as { path: string }).path = path;
    }
    const hunk = file ? HUNK.exec(line) : null;
    if (!file || !hunk) continue;
    const width = hunk[1]!.length - 1;
    let oldLeft = width === 1 ? Number(hunk[3] ?? 1) : Infinity;
    let newLeft = Number(hunk[5] ?? 1);
    let j = i + 1;
    for (; j < lines.length && (oldLeft > 0 || newLeft > 0); j++) {
      const body = lines[j]!;
      if (body.startsWith('\\')) continue;
      const prefix = body.slice(0, width);
      if (body !== '' && !/^[ +-]+$/.test(prefix)) break;
      if (width > 1 && (FILE_START.test(body) || HUNK.test(body))) break;
      if (!prefix.includes('+')) oldLeft--;
      if (!prefix.includes('-')) newLeft--;
    }
    while (j < lines.length && lines[j]!.startsWith('\\')) j++;
    file.hunks.push({ header: i, from: i + 1, to: j - 1, width });
    i = j - 1;
  }
  return files;
}

function generated(lines: readonly string[], file: FileDiff): boolean {
  const name = file.path.split('/').at(-1) ?? '';
  if (LOCKFILES.has(name) || GENERATED_PATH.test(file.path)) return true;
  const first = file.hunks[0];
  if (!first) return false;
  for (let i = first.from; i <= Math.min(first.to, first.from + 5); i++)
    if (GENERATED_MARK.test(lines[i]!)) return true;
  return false;
}

/** A marker standing for lines from..end, which are left out; `omitted` says what they count as. */
interface Marker {
  readonly end: number;
  readonly text: string;
  readonly omitted: string;
  /** Milli-tokens of the marker in the output, its break included. */
  readonly milli: number;
}

/** Lines added and removed in the hunk bodies of `hunks` between lines from..to (inclusive). */
function changes(
  lines: readonly string[],
  hunks: readonly Hunk[],
  from: number,
  to: number,
): { plus: number; minus: number } {
  let plus = 0;
  let minus = 0;
  for (const h of hunks) {
    for (let i = Math.max(h.from, from); i <= Math.min(h.to, to); i++) {
      const prefix = lines[i]!.slice(0, h.width);
      if (prefix.includes('+')) plus++;
      else if (prefix.includes('-')) minus++;
    }
  }
  return { plus, minus };
}

/** How a run of counted hunk lines is named: its marker's phrase, the omitted count it adds to. */
interface Counting {
  readonly what: string;
  readonly omitted: string;
  /** The marker counts the hunk headers among its lines (they are the diff's skeleton). */
  readonly headers?: boolean;
}

/**
 * Markers `+N −M lines` standing for the lines from..to of `hunks`, one per
 * run between the preserved lines there (which stay, so the quality check
 * finds them and the pipeline keeps this structured form).
 */
function counted(
  lines: readonly string[],
  hunks: readonly Hunk[],
  span: readonly [number, number],
  how: Counting,
  kept: ReadonlySet<number>,
  costs: OutputCosts,
): [number, Marker][] {
  return runsAround(span[0], span[1], kept).map(([from, to]) => {
    const { plus, minus } = changes(lines, hunks, from, to);
    const headers = how.headers ? hunks.filter((h) => h.header >= from && h.header <= to).length : 0;
    const held = headers > 0 ? `, ${plural(headers, 'hunk header')}` : '';
    const text = omittedLines(from, to + 1, `${how.what}${held}, +${count(plus)} −${count(minus)}`);
    return [from, { end: to, text, omitted: how.omitted, milli: costs.piece(text) }];
  });
}

const GENERATED: Counting = { what: 'generated file', omitted: 'lines of generated files' };
const BIG_HUNK: Counting = {
  what: 'hunk of a file over the size limit',
  // The omitted count's name as it has always been reported.
  omitted: 'lines of hunk of a file over the size limits',
};
const BIG_FILE: Counting = {
  what: 'file over the size limit',
  omitted: 'lines of files over the size limit',
  headers: true,
};

/** An added-only hunk shorter than this is shown whole rather than outlined (its folds would be few). */
const OUTLINED_HUNK = 20;

/** Every body line of the hunk adds a line (a new file, an added hunk of a `-U0` diff). */
function addedOnly(lines: readonly string[], h: Hunk): boolean {
  if (h.width !== 1) return false;
  for (let i = h.from; i <= h.to; i++) if (lines[i]![0] !== '+' && !lines[i]!.startsWith('\\')) return false;
  return true;
}

/** The hunks of a file whose added code outlines: added-only and long enough. */
function outlinable(lines: readonly string[], file: FileDiff): Hunk[] {
  return file.hunks.filter((h) => h.to - h.from + 1 >= OUTLINED_HUNK && addedOnly(lines, h));
}

/**
 * The file with its `outlining` hunks shown as the outline of the code they
 * add (imports, declarations, signatures, first doc-comment lines stay; each
 * body is one `+N −0` marker), its other hunks as `existing` marks them; null
 * when no hunk outlines.
 */
function outlinedHunks(
  lines: readonly string[],
  file: FileDiff,
  outlining: readonly Hunk[],
  existing: readonly [number, Marker][],
  kept: ReadonlySet<number>,
  costs: OutputCosts,
  aggressive: boolean,
  tick: Tick,
): [number, Marker][] | null {
  const markers: [number, Marker][] = [];
  const folded: Hunk[] = [];
  for (const h of outlining) {
    // The added lines: a `\ No newline at end of file` after the last is no code.
    let end = h.to;
    while (end > h.from && lines[end]!.startsWith('\\')) end--;
    const code = lines.slice(h.from, end + 1).map((l) => l.slice(1));
    const lang = langOf(file.path, code);
    // Markers number the lines of the text: a block opened above the hunk is named by its first line.
    const folds = outline(code, scan(code, lang), aggressive, (i) => kept.has(h.from + i), tick, h.from + 1);
    for (const fold of folds) {
      const [from, to] = [h.from + fold.from, h.from + fold.to];
      const text = omittedLines(from, to + 1, `${fold.label}, +${count(to - from + 1)} −0`);
      markers.push([from, { end: to, text, omitted: 'lines of added code', milli: costs.piece(text) }]);
    }
    if (folds.length > 0) folded.push(h);
  }
  if (folded.length === 0) return null;
  const inFolded = (line: number) => folded.some((h) => line >= h.from && line <= h.to);
  for (const marker of existing) if (!inFolded(marker[0])) markers.push(marker);
  return markers;
}

/** A file's hunks, their headers included, as `+N −M lines` markers. */
function summary(
  lines: readonly string[],
  file: FileDiff,
  how: Counting,
  kept: ReadonlySet<number>,
  costs: OutputCosts,
): [number, Marker][] {
  return counted(lines, file.hunks, [file.hunks[0]!.header, file.hunks.at(-1)!.to], how, kept, costs);
}

/** Each hunk body of a file as `+N −M lines` markers, its hunk headers kept (the diff's skeleton). */
function hunkSummaries(
  lines: readonly string[],
  hunks: readonly Hunk[],
  kept: ReadonlySet<number>,
  costs: OutputCosts,
  how: Counting = BIG_HUNK,
): [number, Marker][] {
  return hunks.filter((h) => h.to >= h.from).flatMap((h) => counted(lines, [h], [h.from, h.to], how, kept, costs));
}

/**
 * A file's first `shown` hunks as hunkSummaries gives them, the others (their
 * headers included, and counted) as `+N −M lines` markers: the file's hunk
 * headers cut by position.
 */
function firstHunks(
  lines: readonly string[],
  file: FileDiff,
  shown: number,
  kept: ReadonlySet<number>,
  costs: OutputCosts,
): [number, Marker][] {
  const rest = file.hunks.slice(shown);
  const span = [rest[0]!.header, rest.at(-1)!.to] as const;
  return [
    ...hunkSummaries(lines, file.hunks.slice(0, shown), kept, costs),
    ...counted(lines, rest, span, BIG_FILE, kept, costs),
  ];
}

/** Context runs of a hand-written file's hunks that fold (long enough, and dearer than their marker). */
function contextMarkers(
  lines: readonly string[],
  file: FileDiff,
  minRun: number,
  kept: ReadonlySet<number>,
  costs: OutputCosts,
): [number, Marker][] {
  const markers: [number, Marker][] = [];
  for (const h of file.hunks) {
    let run = -1;
    for (let i = h.from; i <= h.to + 1; i++) {
      const line = i <= h.to ? lines[i]! : '+';
      const context = !line.startsWith('\\') && !/[+-]/.test(line.slice(0, h.width)) && !kept.has(i);
      if (context && run === -1) run = i;
      if (!context && run !== -1) {
        if (i - run >= minRun) {
          const text = omittedLines(run, i, 'context');
          const milli = costs.piece(text);
          // The marker alone and the run alone, each estimated as a text of its own.
          if (costs.tokens(milli, false) < costs.spanTokens(run, i - 1))
            markers.push([run, { end: i - 1, text, omitted: 'context lines', milli }]);
        }
        run = -1;
      }
    }
  }
  return markers;
}

function render(
  lines: readonly string[],
  markers: ReadonlyMap<number, Marker>,
  omitted: Omitted,
  omissions: PlacedOmission[],
): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = markers.get(i);
    if (marker) {
      out.push(marker.text);
      omissions.push(linesOmission(i, marker.end + 1));
      omitted[marker.omitted] = (omitted[marker.omitted] ?? 0) + marker.end - i + 1;
      i = marker.end;
    } else out.push(lines[i]!);
  }
  return out.join('\n');
}

/**
 * The output's tokens as markers replace lines, summed from per-line costs
 * (no render, no re-estimate): each file's markers are swapped in O(markers).
 */
class Tally {
  private milli: number;
  /** The marker covering the last line, if any (the output's last piece then). */
  private lastMarker: Marker | null = null;

  constructor(
    private readonly costs: OutputCosts,
    private readonly lastLine: number,
  ) {
    this.milli = costs.lines(0, lastLine);
  }

  add(markers: readonly [number, Marker][], sign: 1 | -1): void {
    for (const [from, marker] of markers) {
      this.milli += sign * (marker.milli - this.costs.lines(from, marker.end));
      if (marker.end === this.lastLine) this.lastMarker = sign === 1 ? marker : null;
    }
  }

  get tokens(): number {
    return this.tokensLess(0);
  }

  /** The output's tokens if `milli` milli-tokens of its lines were gone (a lower bound before a swap). */
  tokensLess(milli: number): number {
    const lastEmpty = this.lastMarker ? this.lastMarker.text === '' : this.costs.lineEmpty(this.lastLine);
    return this.costs.tokens(this.milli - milli, lastEmpty);
  }
}

function process(input: ProcessorInput): ProcessorOutput {
  const level = input.level;
  if (level === 'lossless') return { text: input.text, omitted: {}, omissions: [] };
  const lines = textLines(input);
  const files = parse(lines).filter((file) => file.hunks.length > 0);
  const kept = preservedLines(input.analysis, input.preserve);
  const costs = new OutputCosts(input.estimator, input.analysis);
  checkDeadline('diff', input.expired);
  const perFile = new Map<FileDiff, [number, Marker][]>();
  for (const [k, file] of files.entries()) {
    if (k % 64 === 63) checkDeadline('diff', input.expired);
    // A generated file's hunk headers stay (the diff's skeleton: where it changed), each body counted.
    perFile.set(
      file,
      generated(lines, file)
        ? hunkSummaries(lines, file.hunks, kept, costs, GENERATED)
        : contextMarkers(lines, file, FOLD_CONTEXT[level], kept, costs),
    );
  }
  const tally = new Tally(costs, lines.length - 1);
  for (const markers of perFile.values()) tally.add(markers, 1);
  // Over the ceiling, generated files go first to one count each, the most hunks first.
  const machineMade = files.filter((f) => generated(lines, f)).sort((a, b) => b.hunks.length - a.hunks.length);
  for (const [k, file] of machineMade.entries()) {
    if (tally.tokens <= input.maxTokens) break;
    if (k % 64 === 63) checkDeadline('diff', input.expired);
    const whole = summary(lines, file, GENERATED, kept, costs);
    tally.add(perFile.get(file)!, -1);
    tally.add(whole, 1);
    perFile.set(file, whole);
  }
  const biggest = files
    .filter((f) => !generated(lines, f))
    .sort((a, b) => b.hunks.at(-1)!.to - b.hunks[0]!.header - (a.hunks.at(-1)!.to - a.hunks[0]!.header));
  // Over the ceiling, the biggest hand-written files go first to the outline of the code they
  // add (a new file's declarations), then, still over, to their counts, file and hunk headers kept.
  const tick = deadlineTick('diff', input.expired);
  const swap = (file: FileDiff, markers: [number, Marker][]) => {
    tally.add(perFile.get(file)!, -1);
    tally.add(markers, 1);
    perFile.set(file, markers);
  };
  for (const [k, file] of biggest.entries()) {
    if (tally.tokens <= input.maxTokens) break;
    if (k % 64 === 63) checkDeadline('diff', input.expired);
    // An outline stays only when it brings the result under the ceiling: not tried where even
    // every line it could fold, gone, would leave the result over (a huge diff is not scanned).
    const outlining = outlinable(lines, file);
    const foldable = outlining.reduce((milli, h) => milli + costs.lines(h.from, h.to), 0);
    const outlined =
      foldable > 0 && tally.tokensLess(foldable) <= input.maxTokens
        ? outlinedHunks(lines, file, outlining, perFile.get(file)!, kept, costs, level === 'aggressive', tick)
        : null;
    if (outlined) swap(file, outlined);
    if (tally.tokens > input.maxTokens) swap(file, hunkSummaries(lines, file.hunks, kept, costs));
  }
  // Still over at the harshest level, the biggest files' hunk headers go into their counts too,
  // the first ones kept as fits (light leaves that to aggressive, which folds more context
  // first): every file header stays.
  for (const [k, file] of biggest.entries()) {
    if (level !== 'aggressive' || tally.tokens <= input.maxTokens) break;
    if (k % 64 === 63) checkDeadline('diff', input.expired);
    if (file.hunks.length < 2) continue;
    let markers = perFile.get(file)!;
    const tryShown = (shown: number) => {
      tally.add(markers, -1);
      markers = firstHunks(lines, file, shown, kept, costs);
      tally.add(markers, 1);
      return tally.tokens <= input.maxTokens;
    };
    const shown = largestFitting(0, file.hunks.length - 1, tryShown);
    tryShown(shown);
    perFile.set(file, markers);
  }
  // Still over, the biggest files are their `diff --git` lines alone, the index, mode and
  // ---/+++ lines going into the count with the hunks.
  for (const [k, file] of biggest.entries()) {
    if (level !== 'aggressive' || tally.tokens <= input.maxTokens) break;
    if (k % 64 === 63) checkDeadline('diff', input.expired);
    if (file.start === -1) continue;
    const named = counted(lines, file.hunks, [file.start + 1, file.hunks.at(-1)!.to], BIG_FILE, kept, costs);
    tally.add(perFile.get(file)!, -1);
    tally.add(named, 1);
    perFile.set(file, named);
  }
  const omitted: Omitted = {};
  const markers = new Map<number, Marker>();
  for (const list of perFile.values()) for (const [from, marker] of list) markers.set(from, marker);
  const omissions: PlacedOmission[] = [];
  const text = render(lines, markers, omitted, omissions);
  if (Object.keys(omitted).length === 0 || tally.tokens >= costs.textTokens)
    return { text: input.text, omitted: {}, omissions: [] };
  // Every step above runs while the tally is over maxTokens: over it still, a lower one changes nothing.
  return {
    text,
    omitted,
    omissions,
    ...(level === 'aggressive' && tally.tokens > input.maxTokens ? { floor: input.maxTokens } : {}),
  };
}

/** A `diff --git` line, or `---`/`+++` file headers, followed by a hunk header. */
function sniff(analysis: TextAnalysis): number {
  const { lines, shape } = analysis.features;
  const shaped = (i: number, bit: number, rule: RegExp) => (shape[i]! & bit) !== 0 && rule.test(analysis.headLine(i));
  let hunk = 0;
  while (hunk < lines && !shaped(hunk, FEATURE.AT_AT, HUNK)) hunk++;
  if (hunk === lines) return 0;
  for (let i = 0; i < hunk; i++) if (shaped(i, FEATURE.DIFF_WORD, FILE_START)) return 0.97;
  return hunk >= 2 && analysis.headLine(hunk - 2).startsWith('--- ') && analysis.headLine(hunk - 1).startsWith('+++ ')
    ? 0.95
    : 0;
}

export const diffProcessor: Processor = {
  kind: 'diff',
  lineShaped: true,
  commands: ['git diff', 'git show', 'diff', 'hg diff', 'svn diff'],
  fileExtensions: ['diff', 'patch'],
  sniff,
  process,
  skeleton: historySkeleton,
};
