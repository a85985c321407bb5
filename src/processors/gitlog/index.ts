// The git log processor: `git log` in its default, --stat, --graph, --oneline
// and fuller forms. Every commit line (its hash and decorations), every header
// line (Author, Date, Merge…) and every subject stays; message bodies and
// per-file stat lines fold into markers (a stat's files counted per
// directory, a file alone in its directory by its path), each commit's stat
// summary line (`3 files changed, 40 insertions(+), 2 deletions(-)`) stays and
// one marker gives the totals. Still over budget (or at aggressive), each commit keeps its
// commit line as printed (the full hash a model passes to `git show`) and the
// rest becomes one marker holding its author, date, subject and stat summary
// verbatim; when even that is over budget, the summary most commits share
// moves into the totals marker (it names them), then the others go too. Over
// maxTokens every commit line stays, the subjects in the markers cut to the
// width that fits; only then do the oldest commits fold into one marker naming
// their hash range. A log with patches (`git log -p`) is a diff.
import type { Omitted, Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import type { TextAnalysis } from '../../engine/index.js';
import { DATED_BLAME_LINE } from '../blame.js';
import { diffProcessor } from '../diff/index.js';
import { historySkeleton } from '../diff/skeleton.js';
import { splitLines } from '../fit.js';
import { count, linesOmission, note, omittedLines, type PlacedOmission, plural } from '../markers.js';
import { OutputCosts } from '../costs.js';
import { checkDeadline } from '../errors.js';
import { preservedLines, runsAround } from '../log/priority.js';
import { cutChars } from '../../text/strings.js';
import { foldSameSubjects } from './subjects.js';

/** --graph columns in front of a line: `* `, `| `, `|\`, `|/ `… */
const GRAPH = /^(?:[*|\\/_.-] ?)*/;
const COMMIT = /^commit ([0-9a-f]{7,64})\b/;
const ONELINE = /^([0-9a-f]{7,64}) \S/;
const HEADER = /^(?:Merge|Author|AuthorDate|Commit|CommitDate|Date|Reflog|Reflog message):/;
const STAT = /^ \S.*\|\s+(?:\d+|Bin\b)/;
const NAME_STATUS = /^[ACDMRTUX]\d*\t/;
/** Characters of a subject a commit's marker keeps over the ceiling: git's own width for a subject line. */
const SUBJECT_CHARS = 72;
/** Characters of a subject that still say what a commit did (`Store heals mid-use: a…`). */
const MIN_SUBJECT = 24;
const SUMMARY = /^ (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?/;

interface Commit {
  /** Line index of its commit line, and of its last line. */
  readonly from: number;
  readonly to: number;
  readonly hash: string;
}

interface Fold {
  readonly from: number;
  readonly to: number;
  readonly what: string;
  /** The key of the omitted counts its lines go to. */
  readonly counted: 'message body lines' | 'stat lines' | 'commit lines folded' | 'lines of older commits';
}

/**
 * Lines without their --graph columns. A commit's lines share its commit
 * line's column width (`* | commit …` then `|/  Author: …`).
 */
function contents(lines: readonly string[]): string[] {
  if (!/^\* /.test(lines.find((l) => l.trim() !== '') ?? '')) return [...lines];
  let width = 0;
  return lines.map((line) => {
    const columns = GRAPH.exec(line)![0];
    const rest = line.slice(columns.length).trimStart();
    if (COMMIT.test(rest) || ONELINE.test(rest)) width = line.length - rest.length;
    return /^[*|\\/_. -]*$/.test(line.slice(0, width)) ? line.slice(width) : line.slice(columns.length);
  });
}

function commitsOf(content: readonly string[]): Commit[] {
  const full = content.some((l) => COMMIT.test(l));
  const starts: { at: number; hash: string }[] = [];
  content.forEach((l, at) => {
    const m = (full ? COMMIT : ONELINE).exec(l);
    if (m) starts.push({ at, hash: m[1]! });
  });
  return starts.map((s, k) => ({ from: s.at, to: (starts[k + 1]?.at ?? content.length) - 1, hash: s.hash }));
}

/** A commit's subject: its oneline text, or the first message line under its headers. */
function subjectOf(content: readonly string[], commit: Commit): string | null {
  const first = content[commit.from]!;
  if (!COMMIT.test(first)) return first.slice(commit.hash.length + 1).trim();
  for (let i = commit.from + 1; i <= commit.to; i++) if (/^ {4}\S/.test(content[i]!)) return content[i]!.trim();
  return null;
}

/** Directories (or files alone in theirs) a folded stat names: enough to say where a commit touched. */
const STAT_PLACES = 4;
/** Places the totals name when no commit's marker names its files. */
const TOTAL_PLACES = 12;

/** A per-file stat or name-status line. */
function isStat(line: string): boolean {
  return STAT.test(line) || NAME_STATUS.test(line);
}

/**
 * The per-file stat lines among [from, to) counted per directory, a file alone
 * in its directory by its path, as git printed it (a long path may start
 * `.../`): `src/processors/ 4, test/unit/json.test.ts, docs/ 2`, in the order
 * they first appear or, `byCount`, the most changed first; at most `limit`
 * places, then `+N more`. Also how many stat lines there were.
 */
function placesOf(
  content: readonly string[],
  from: number,
  to: number,
  limit: number,
  byCount = false,
): { stats: number; places: string } {
  const dirs = new Map<string, string[]>();
  let stats = 0;
  for (let i = from; i < to; i++) {
    const line = content[i]!;
    if (!isStat(line)) continue;
    stats++;
    const bar = line.indexOf('|');
    const path = NAME_STATUS.test(line) ? line.slice(line.indexOf('\t') + 1).trim() : line.slice(0, bar).trim();
    const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
    const files = dirs.get(dir);
    if (files) files.push(path);
    else dirs.set(dir, [path]);
  }
  const ordered = byCount ? [...dirs].sort((a, b) => b[1].length - a[1].length) : [...dirs];
  const places = ordered.map(([dir, files]) =>
    files.length === 1 || new Set(files).size === 1
      ? `${files[0]!}${files.length > 1 ? ` ${files.length}` : ''}`
      : `${dir || './'} ${files.length}`,
  );
  const more = places.length > limit ? `, +${count(places.length - limit)} more` : '';
  return { stats, places: `${places.slice(0, limit).join(', ')}${more}` };
}

/** `stat of 7 files: src/processors/ 4, test/unit/json.test.ts, docs/ 2`: the stat lines among [from, to). */
function statOf(content: readonly string[], from: number, to: number): string {
  const { stats, places } = placesOf(content, from, to, STAT_PLACES);
  return `stat of ${plural(stats, 'file')}${stats > 0 ? `: ${places}` : ''}`;
}

/** Folds of one commit: its body after the subject, its per-file stat or name-status lines. */
function foldsOf(
  content: readonly string[],
  commit: Commit,
  minBody: number,
  kept: ReadonlySet<number>,
  folds: Fold[],
): void {
  let i = commit.from + 1;
  while (i <= commit.to && HEADER.test(content[i]!)) i++;
  while (i <= commit.to && content[i]!.trim() === '') i++;
  const subject = i <= commit.to && /^ {4}/.test(content[i]!) ? i : -1;
  let bodyEnd = subject;
  if (subject !== -1) {
    for (let j = subject + 1; j <= commit.to && (content[j]!.trim() === '' || /^ {4}/.test(content[j]!)); j++)
      bodyEnd = j;
    // The blank line that ends the message stays with what follows it.
    while (bodyEnd > subject && content[bodyEnd]!.trim() === '') bodyEnd--;
    if (bodyEnd - subject >= minBody) {
      const body: Fold = { from: subject + 1, to: bodyEnd, what: 'message body', counted: 'message body lines' };
      folds.push(...aroundKept(body, kept, () => 'message body'));
    }
  }
  let run = -1;
  for (let j = Math.max(commit.from + 1, bodyEnd + 1); j <= commit.to + 1; j++) {
    const stat = j <= commit.to && isStat(content[j]!);
    if (stat && run === -1) run = j;
    if (!stat && run !== -1) {
      if (j - run >= 2) {
        const stat: Fold = { from: run, to: j - 1, what: statOf(content, run, j), counted: 'stat lines' };
        folds.push(...aroundKept(stat, kept, (from, to) => statOf(content, from, to + 1)));
      }
      run = -1;
    }
  }
}

/** The stat summary line (trimmed) most commits share, and how many share it: null when none is shared. */
function commonSummary(content: readonly string[]): { line: string; commits: number } | null {
  const counts = new Map<string, number>();
  for (const line of content) if (SUMMARY.test(line)) counts.set(line.trim(), (counts.get(line.trim()) ?? 0) + 1);
  let best: { line: string; commits: number } | null = null;
  for (const [line, commits] of counts) if (commits >= 2 && commits > (best?.commits ?? 0)) best = { line, commits };
  return best;
}

/** `12 older commits, 3f2a9c1d04 … 9be0c4a1f2`: the commits whose commit lines are among lines from..to. */
function olderCommits(commits: readonly Commit[], from: number, to: number): string {
  const held = commits.filter((c) => c.from >= from && c.from <= to);
  if (held.length === 0) return '';
  return `${plural(held.length, 'older commit')}, ${held[0]!.hash.slice(0, 10)} … ${held.at(-1)!.hash.slice(0, 10)}`;
}

/**
 * The totals marker; `common` names the summary left out of the commits shown
 * without one; `where`: the markers name no commit's files, so the totals name
 * the places all the stats changed, the most changed first.
 */
function totals(
  content: readonly string[],
  common: { line: string; commits: number } | null,
  where = false,
): string | null {
  let commits = 0;
  const sum = [0, 0, 0];
  for (const line of content) {
    const m = SUMMARY.exec(line);
    if (!m) continue;
    commits++;
    for (let k = 0; k < 3; k++) sum[k]! += Number(m[k + 1] ?? 0);
  }
  if (commits < 2) return null;
  const shared = common
    ? `; ${common.line} in each of the ${count(common.commits)} commits shown without their stat summary`
    : '';
  const places = where ? `; changed most in ${placesOf(content, 0, content.length, TOTAL_PLACES, true).places}` : '';
  return note(
    `stats of ${plural(commits, 'commit')}: ${plural(sum[0]!, 'file')} changed, ${count(sum[1]!)} insertions(+), ${count(sum[2]!)} deletions(-) in total${shared}${places}`,
  );
}

/**
 * A fold with the preserved lines inside it left out of it: one fold per run
 * between them, the k-th (from 0) named by `name` over its own lines.
 */
function aroundKept(
  fold: Fold,
  kept: ReadonlySet<number>,
  name: (from: number, to: number, k: number) => string,
): Fold[] {
  const runs = runsAround(fold.from, fold.to, kept);
  if (runs.length === 1 && runs[0]![0] === fold.from && runs[0]![1] === fold.to) return [fold];
  return runs.map(([from, to], k) => ({ ...fold, from, to, what: name(from, to, k) }));
}

function markerOf(fold: Fold): string {
  return omittedLines(fold.from, fold.to + 1, fold.what);
}

function render(
  lines: readonly string[],
  folds: readonly Fold[],
  omitted: Omitted,
  omissions: PlacedOmission[],
): string[] {
  const out: string[] = [];
  const byStart = new Map(folds.map((f) => [f.from, f]));
  for (let i = 0; i < lines.length; i++) {
    const fold = byStart.get(i);
    if (!fold) {
      out.push(lines[i]!);
      continue;
    }
    const n = fold.to - fold.from + 1;
    out.push(markerOf(fold));
    omissions.push(linesOmission(fold.from, fold.to + 1));
    omitted[fold.counted] = (omitted[fold.counted] ?? 0) + n;
    i = fold.to;
  }
  return out;
}

/** What a commit's marker holds when a log is over budget (see compactFolds). */
interface Compact {
  /** The stat summary lines it keeps. */
  readonly keepSummary: (line: string) => boolean;
  /** Characters of the subject it keeps. */
  readonly subjectChars?: number;
  /** It names the commit's files (per directory, `stat of 4 files: src/ 3, README.md`). */
  readonly files: boolean;
}

/**
 * For a log still over budget with its bodies and stats folded: each commit's
 * commit line stays as printed (its full hash, for `git show`, and its
 * decorations), and its other lines become one marker holding its author name,
 * date, subject, the files of its stat and its stat summary (as `how` says),
 * each verbatim. The totals marker keeps the sum of their stats. The preserved
 * lines (`kept`) stay, the marker split around them.
 */
function compactFolds(
  content: readonly string[],
  commits: readonly Commit[],
  how: Compact,
  kept: ReadonlySet<number>,
): Fold[] {
  const { keepSummary, subjectChars = Infinity } = how;
  if (!content.some((l) => COMMIT.test(l))) {
    // --oneline: the hash and subject line stays, its stat lines go (the totals keep their sum).
    return commits.flatMap((c) => {
      let last = c.to;
      for (let at = c.from + 1; at <= c.to; at++) {
        if (SUMMARY.test(content[at]!) && keepSummary(content[at]!)) {
          last = at - 1;
          break;
        }
      }
      if (last <= c.from) return [];
      const stat = (from: number, to: number) => {
        const named = statOf(content, from, to + 1);
        return how.files ? named : named.replace(/:.*$/, '');
      };
      const fold: Fold = { from: c.from + 1, to: last, what: stat(c.from + 1, last), counted: 'stat lines' };
      return aroundKept(fold, kept, stat);
    });
  }
  const folded = commits.filter((c) => c.to > c.from);
  /** A commit's lines after its commit line, and the value of its `Name:` header line among them. */
  const ownLines = folded.map((commit) => content.slice(commit.from + 1, commit.to + 1));
  const fieldIn = (own: readonly string[], name: string) =>
    own
      .find((l) => l.startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim();
  const authors = ownLines.map((own) => fieldIn(own, 'Author')?.replace(/\s*<[^>]*>$/, ''));
  // One author for every commit (a solo project, a bot): named once, in the first marker, not in each.
  const sole =
    authors.length >= 2 && authors.every((a) => a !== undefined && a === authors[0]) ? authors[0] : undefined;
  return folded.flatMap((commit, n) => {
    const own = ownLines[n]!;
    const field = (name: string) => fieldIn(own, name);
    const author = sole === undefined ? authors[n] : n === 0 ? `${sole} (the author of every commit here)` : undefined;
    const date = field('AuthorDate') ?? field('Date');
    const subject = own.find((l) => /^ {4}\S/.test(l))?.trim();
    const merge = field('Merge');
    const summary = own.findIndex((l) => SUMMARY.test(l) && keepSummary(l)) + commit.from + 1;
    const quoted = subject && subjectChars > 0 && `"${cutChars(subject, subjectChars)}"`;
    const fields = [merge && `merge of ${merge}`, author, date, quoted];
    // Lines from..to of the commit: the files of the stat lines among them and the summary if there.
    const stat = (from: number, to: number) => [
      how.files && content.slice(from, to + 1).some(isStat) && statOf(content, from, to + 1),
      summary > commit.from && summary >= from && summary <= to && content[summary]!.trim(),
    ];
    const whatOf = (from: number, to: number, k: number) =>
      [...(k === 0 ? fields : []), ...stat(from, to)].filter(Boolean).join(', ');
    // Split by a preserved line, the first piece names the commit, each the stat it holds.
    const fold: Fold = {
      from: commit.from + 1,
      to: commit.to,
      what: whatOf(commit.from + 1, commit.to, 0),
      counted: 'commit lines folded',
    };
    return aroundKept(fold, kept, whatOf);
  });
}

function process(input: ProcessorInput): ProcessorOutput {
  if (/^diff --git /m.test(input.text)) return diffProcessor.process(input);
  const lines = splitLines(input.text);
  const content = contents(lines);
  const commits = commitsOf(content);
  if (input.level === 'lossless') {
    // A --graph log keeps its lines: folding commits out would break the graph drawn beside them.
    const graph = content.some((line, i) => line !== lines[i]);
    return (
      (!graph && foldSameSubjects(lines, commits, (c) => subjectOf(content, c))) || {
        text: input.text,
        omitted: {},
        omissions: [],
      }
    );
  }
  const costs = new OutputCosts(input.estimator, input.analysis);
  const markerMilli = new Map<Fold, number>();
  /**
   * Tokens of the output with these folds and the totals line, summed from
   * line and marker costs (no render). The lines left are summed first, then
   * the markers one by one: past `limit` the sum stops (a search needs only
   * "over"), so a try costs the markers that fit, not all of them.
   */
  const tokensOf = (folds: readonly Fold[], total: string | null, limit = Infinity): number => {
    const last = lines.length - 1;
    let milli = costs.lines(0, last);
    let lastEmpty = costs.lineEmpty(last);
    for (const fold of folds) {
      milli -= costs.lines(fold.from, fold.to);
      if (fold.to === last) lastEmpty = false;
    }
    if (total) {
      milli += costs.piece(total);
      lastEmpty = total === '';
    }
    for (const fold of folds) {
      if (costs.tokens(milli, lastEmpty) > limit) break;
      let own = markerMilli.get(fold);
      if (own === undefined) markerMilli.set(fold, (own = costs.piece(markerOf(fold))));
      milli += own;
    }
    return costs.tokens(milli, lastEmpty);
  };
  // Preserved lines stay wherever they are: every fold is split around them.
  const kept = preservedLines(input.analysis, input.preserve);
  let folds: Fold[] = [];
  checkDeadline('gitlog', input.expired);
  for (const [k, commit] of commits.entries()) {
    if (k % 256 === 255) checkDeadline('gitlog', input.expired);
    foldsOf(content, commit, input.level === 'aggressive' ? 1 : 2, kept, folds);
  }
  let total = totals(content, null);
  // Still over budget (or aggressive): one marker per commit, naming its files and with its
  // stat summary if that fits, else with the summaries that differ from the most common one
  // (the totals name it), else none; then the same without the files.
  if (commits.length > 0 && (input.level === 'aggressive' || tokensOf(folds, total, input.budget) > input.budget)) {
    const common = commonSummary(content);
    const summaries = [
      { keep: () => true, common: null },
      ...(common ? [{ keep: (l: string) => l.trim() !== common.line, common }] : []),
      { keep: () => false, common: null },
    ];
    const ladder = [true, false].flatMap((files) => summaries.map((step) => ({ ...step, files })));
    for (const step of ladder) {
      checkDeadline('gitlog', input.expired);
      folds = compactFolds(content, commits, { keepSummary: step.keep, files: step.files }, kept);
      total = totals(content, step.common, !step.files);
      if (tokensOf(folds, total, input.budget) <= input.budget) break;
    }
  }
  // Over the ceiling every commit line stays (they are the skeleton): the stat
  // summaries leave the markers (the totals keep their sum) and the subjects
  // in them are cut to the widest that fits with the files they name (a binary
  // search from MIN_SUBJECT to git's subject width); below MIN_SUBJECT the
  // files go (the totals then name where the stats changed) and the subjects
  // get the widest that fits, else they go (author and date stay). Only then
  // do the oldest commits go, named by their hash range.
  if (commits.length > 0 && tokensOf(folds, total, input.maxTokens) > input.maxTokens) {
    const fits = (width: number, files = false) => {
      folds = compactFolds(content, commits, { keepSummary: () => false, subjectChars: width, files }, kept);
      total = totals(content, null, !files);
      return tokensOf(folds, total, input.maxTokens) <= input.maxTokens;
    };
    /** The widest subject from `lo` up to git's width that fits (a binary search), or -1. */
    const widest = (lo: number, files: boolean): number => {
      if (!fits(lo, files)) return -1;
      let hi = SUBJECT_CHARS + 1;
      while (hi - lo > 1) {
        checkDeadline('gitlog', input.expired);
        const mid = (lo + hi) >>> 1;
        if (fits(mid, files)) lo = mid;
        else hi = mid;
      }
      return lo;
    };
    const withFiles = widest(MIN_SUBJECT, true);
    if (withFiles >= 0) fits(withFiles, true);
    else fits(Math.max(0, widest(0, false)));
  }
  for (
    let keep = Math.floor(commits.length * 0.9);
    tokensOf(folds, total, input.maxTokens) > input.maxTokens && keep >= 1;
    keep = Math.floor(keep * 0.9)
  ) {
    checkDeadline('gitlog', input.expired);
    const older = commits.slice(keep);
    const [from, to] = [older[0]!.from, older.at(-1)!.to];
    const cut: Fold = { from, to, what: olderCommits(older, from, to), counted: 'lines of older commits' };
    const shown: Fold[] = [];
    for (const fold of folds) if (fold.to < cut.from) shown.push(fold);
    shown.push(...aroundKept(cut, kept, (from, to) => olderCommits(older, from, to)));
    folds = shown;
  }
  const omitted: Omitted = {};
  const omissions: PlacedOmission[] = [];
  const text = [...render(lines, folds, omitted, omissions), ...(total ? [total] : [])].join('\n');
  if (Object.keys(omitted).length === 0 || tokensOf(folds, total) >= costs.textTokens)
    return { text: input.text, omitted: {}, omissions: [] };
  return { text, omitted, omissions };
}

/** A `commit <hash>` line at the start (after --graph columns) and Author/Date lines under it. */
function sniff(analysis: TextAnalysis): number {
  const lines = contents(analysis.headLines(40));
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) return 0;
  if (!COMMIT.test(lines[first]!)) {
    // --oneline: hash and subject lines, perhaps with --stat lines under them.
    const content = lines.filter((l) => l.trim() !== '');
    const rest = content.filter((l) => !STAT.test(l) && !SUMMARY.test(l));
    // `git blame` lines start with a commit too: `9494a32a (Dana  2025-03-06 21:12:00 +0000  1) code`.
    if (rest.some((l) => DATED_BLAME_LINE.test(l))) return 0;
    // `git diff --stat`: file stat lines closed by their summary, no commit line.
    if (rest.length === 0) return content.some((l) => SUMMARY.test(l)) ? 0.6 : 0;
    return rest.length >= 3 && rest.every((l) => ONELINE.test(l)) ? 0.6 : 0;
  }
  return lines.slice(first + 1, first + 5).some((l) => /^Author: /.test(l)) ? 0.9 : 0.6;
}

export const gitlogProcessor: Processor = {
  kind: 'gitlog',
  lineShaped: true,
  commands: ['git log', 'git reflog', 'git whatchanged'],
  sniff,
  process,
  skeleton: historySkeleton,
};
