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
// width that fits (author and date leave before a subject is cut short: it
// says what the commit did); only then do the oldest commits fold into one
// marker naming their hash range. A log with patches (`git log -p`) is a diff.
import type { Omitted, Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import type { TextAnalysis } from '../../engine/index.js';
import { DATED_BLAME_LINE } from '../blame.js';
import { diffProcessor } from '../diff/index.js';
import { historySkeleton } from '../diff/skeleton.js';
import { textLines } from '../fit.js';
import { count, linesOmission, note, omittedLines, type PlacedOmission, plural } from '../markers.js';
import { OutputCosts } from '../costs.js';
import { checkDeadline } from '../errors.js';
import { preservedLines, runsAroundSorted } from '../log/priority.js';
import { cutChars } from '../../text/strings.js';
import { LogStats, STAT, SUMMARY } from './stats.js';
import { foldSameSubjects } from './subjects.js';

/** --graph columns in front of a line: `* `, `| `, `|\`, `|/ `… */
const GRAPH = /^(?:[*|\\/_.-] ?)*/;
const COMMIT = /^commit ([0-9a-f]{7,64})\b/;
const ONELINE = /^([0-9a-f]{7,64}) \S/;
const HEADER = /^(?:Merge|Author|AuthorDate|Commit|CommitDate|Date|Reflog|Reflog message):/;
/** Characters of a subject a commit's marker keeps over the ceiling: git's own width for a subject line. */
const SUBJECT_CHARS = 72;
/** Characters of a subject that still say what a commit did (`Store heals mid-use: a…`). */
const MIN_SUBJECT = 24;

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

/** Commits of a log in the full format (`full`: `commit <hash>` lines) or --oneline. */
function commitsOf(content: readonly string[], full: boolean): Commit[] {
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

/** A log's lines and what every set of folds reads of them, found once per call. */
interface Log {
  readonly content: readonly string[];
  readonly commits: readonly Commit[];
  readonly stats: LogStats;
  /** The preserved lines, in line order: every fold is split around them. */
  readonly keptInOrder: readonly number[];
  /** `commit <hash>` lines, not --oneline. */
  readonly full: boolean;
}

/** Folds of one commit: its body after the subject, its per-file stat or name-status lines. */
function foldsOf(log: Log, commit: Commit, minBody: number, folds: Fold[]): void {
  const { content, stats } = log;
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
      folds.push(...aroundKept(body, log, () => 'message body'));
    }
  }
  let run = -1;
  for (let j = Math.max(commit.from + 1, bodyEnd + 1); j <= commit.to + 1; j++) {
    const stat = j <= commit.to && stats.isStat(j);
    if (stat && run === -1) run = j;
    if (!stat && run !== -1) {
      if (j - run >= 2) {
        const stat: Fold = { from: run, to: j - 1, what: stats.statOf(run, j), counted: 'stat lines' };
        folds.push(...aroundKept(stat, log, (from, to) => stats.statOf(from, to + 1)));
      }
      run = -1;
    }
  }
}

/** The stat summary line (trimmed) most commits share, and how many share it: null when none is shared. */
function commonSummary(log: Log): { line: string; commits: number } | null {
  const counts = new Map<string, number>();
  for (const at of log.stats.summaries) {
    const line = log.content[at]!.trim();
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
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
function totals(stats: LogStats, common: { line: string; commits: number } | null, where = false): string | null {
  const { commits, sum } = stats.summed;
  if (commits < 2) return null;
  const shared = common
    ? `; ${common.line} in each of the ${count(common.commits)} commits shown without their stat summary`
    : '';
  const places = where ? `; changed most in ${stats.mostChanged()}` : '';
  return note(
    `stats of ${plural(commits, 'commit')}: ${plural(sum[0], 'file')} changed, ${count(sum[1])} insertions(+), ${count(sum[2])} deletions(-) in total${shared}${places}`,
  );
}

/**
 * A fold with the preserved lines inside it left out of it: one fold per run
 * between them, the k-th (from 0) named by `name` over its own lines.
 */
function aroundKept(fold: Fold, log: Log, name: (from: number, to: number, k: number) => string): Fold[] {
  const runs = runsAroundSorted(fold.from, fold.to, log.keptInOrder);
  // Most folds hold no preserved line: one run, the fold itself (an empty fold holds none either).
  if (fold.from > fold.to || (runs.length === 1 && runs[0]![0] === fold.from && runs[0]![1] === fold.to)) return [fold];
  return runs.map(([from, to], k) => ({
    from,
    to,
    counted: fold.counted,
    what: name(from, to, k),
  }));
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

/** What a commit's marker holds when a log is over budget (see compactor). */
interface Compact {
  /** The stat summary lines it keeps. */
  readonly keepSummary: (line: string) => boolean;
  /** Characters of the subject it keeps. */
  readonly subjectChars?: number;
  /** It names the commit's files (per directory, `stat of 4 files: src/ 3, README.md`). */
  readonly files: boolean;
  /** It names the commit's author and date (unless false). */
  readonly byline?: boolean;
}

/** What a commit's marker may name, read once from its lines (the budget search tries many markers). */
interface Described {
  readonly commit: Commit;
  /** Its author's name, or for the first commit of a log with one author, that author said once. */
  readonly author: string | undefined;
  readonly date: string | undefined;
  readonly subject: string | undefined;
  readonly merge: string | undefined;
  /** Its stat summary lines. */
  readonly summaries: readonly number[];
}

/** The value of the first `Name:` line among lines from..to. */
function fieldIn(content: readonly string[], from: number, to: number, name: string): string | undefined {
  const prefix = `${name}:`;
  for (let i = from; i <= to; i++) if (content[i]!.startsWith(prefix)) return content[i]!.slice(prefix.length).trim();
  return undefined;
}

/** The commits with lines after their commit line, described. */
function described(log: Log): Described[] {
  const { content, stats } = log;
  const folded = log.commits.filter((c) => c.to > c.from);
  const authors = folded.map((c) => fieldIn(content, c.from + 1, c.to, 'Author')?.replace(/\s*<[^>]*>$/, ''));
  // One author for every commit (a solo project, a bot): named once, in the first marker, not in each.
  const sole =
    authors.length >= 2 && authors.every((a) => a !== undefined && a === authors[0]) ? authors[0] : undefined;
  let next = 0;
  return folded.map((commit, n) => {
    const { from, to } = commit;
    let subject: string | undefined;
    for (let i = from + 1; i <= to && subject === undefined; i++)
      if (/^ {4}\S/.test(content[i]!)) subject = content[i]!.trim();
    // Commits are in line order, and so are the summaries: one walk pairs them.
    while (next < stats.summaries.length && stats.summaries[next]! <= from) next++;
    const summaries: number[] = [];
    for (let k = next; k < stats.summaries.length && stats.summaries[k]! <= to; k++)
      summaries.push(stats.summaries[k]!);
    return {
      commit,
      author: sole === undefined ? authors[n] : n === 0 ? `${sole} (the author of every commit here)` : undefined,
      date: fieldIn(content, from + 1, to, 'AuthorDate') ?? fieldIn(content, from + 1, to, 'Date'),
      subject,
      merge: fieldIn(content, from + 1, to, 'Merge'),
      summaries,
    };
  });
}

/**
 * For a log still over budget with its bodies and stats folded: each commit's
 * commit line stays as printed (its full hash, for `git show`, and its
 * decorations), and its other lines become one marker holding its author name,
 * date, subject, the files of its stat and its stat summary (as `how` says),
 * each verbatim. The totals marker keeps the sum of their stats. The preserved
 * lines (`kept`) stay, the marker split around them. The commits are read
 * once, when the compactor is made; each call makes one set of folds.
 */
function compactor(log: Log): (how: Compact) => Fold[] {
  if (!log.full) return (how) => onelineFolds(log, how);
  const commits = described(log);
  return (how) => {
    const folds: Fold[] = [];
    for (const commit of commits) commitFolds(log, commit, how, folds);
    return folds;
  };
}

/** --oneline: the hash and subject line stays, its stat lines go (the totals keep their sum). */
function onelineFolds(log: Log, how: Compact): Fold[] {
  const { content, stats } = log;
  const stat = (from: number, to: number) => {
    const named = stats.statOf(from, to + 1);
    return how.files ? named : named.replace(/:.*$/, '');
  };
  return log.commits.flatMap((c) => {
    let last = c.to;
    for (let at = c.from + 1; at <= c.to; at++) {
      if (stats.isSummary(at) && how.keepSummary(content[at]!)) {
        last = at - 1;
        break;
      }
    }
    if (last <= c.from) return [];
    const fold: Fold = { from: c.from + 1, to: last, what: stat(c.from + 1, last), counted: 'stat lines' };
    return aroundKept(fold, log, stat);
  });
}

/**
 * The marker text of a full-format commit's lines from..to: its fields when it
 * is the first piece (k = 0), then the files of the stat lines among them and
 * its stat summary if there.
 */
function commitWhat(log: Log, described: Described, how: Compact, from: number, to: number, k: number): string {
  const { author, date, subject, merge } = described;
  const { subjectChars = Infinity, byline = true } = how;
  const parts: (string | false | undefined)[] = [];
  if (k === 0) {
    const quoted = subject && subjectChars > 0 && `"${cutChars(subject, subjectChars)}"`;
    parts.push(merge && `merge of ${merge}`, byline && author, byline && date, quoted);
  }
  if (how.files && log.stats.statsIn(from, to + 1) > 0) parts.push(log.stats.statOf(from, to + 1));
  // The first summary line it keeps, if among from..to (the commit line is never one).
  const summary = described.summaries.find((at) => how.keepSummary(log.content[at]!));
  if (summary !== undefined && summary >= from && summary <= to) parts.push(log.content[summary]!.trim());
  return parts.filter(Boolean).join(', ');
}

/**
 * A full-format commit's lines after its commit line as one fold, its marker
 * text made when first read: a budget try sums markers only until it is over,
 * so most tries read few of them.
 */
class CommitFold implements Fold {
  readonly from: number;
  readonly to: number;
  readonly counted = 'commit lines folded';
  private named: string | undefined;

  constructor(
    private readonly log: Log,
    private readonly described: Described,
    private readonly how: Compact,
  ) {
    this.from = described.commit.from + 1;
    this.to = described.commit.to;
  }

  get what(): string {
    this.named ??= commitWhat(this.log, this.described, this.how, this.from, this.to, 0);
    return this.named;
  }
}

/** A full-format commit's folds (see compactor), pushed to `folds`; split by a preserved line, the first piece names the commit, each the stat it holds. */
function commitFolds(log: Log, described: Described, how: Compact, folds: Fold[]): void {
  const fold = new CommitFold(log, described, how);
  folds.push(...aroundKept(fold, log, (from, to, k) => commitWhat(log, described, how, from, to, k)));
}

function process(input: ProcessorInput): ProcessorOutput {
  if (/^diff --git /m.test(input.text)) return diffProcessor.process(input);
  const lines = textLines(input);
  const content = contents(lines);
  const full = content.some((l) => COMMIT.test(l));
  const commits = commitsOf(content, full);
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
  const keptInOrder = [...kept].sort((a, b) => a - b);
  const log: Log = { content, commits, stats: new LogStats(content), keptInOrder, full };
  let folds: Fold[] = [];
  checkDeadline('gitlog', input.expired);
  for (const [k, commit] of commits.entries()) {
    if (k % 256 === 255) checkDeadline('gitlog', input.expired);
    foldsOf(log, commit, input.level === 'aggressive' ? 1 : 2, folds);
  }
  let total = totals(log.stats, null);
  let compact: ((how: Compact) => Fold[]) | undefined;
  // Still over budget (or aggressive): one marker per commit, naming its files and with its
  // stat summary if that fits, else with the summaries that differ from the most common one
  // (the totals name it), else none; then the same without the files.
  if (commits.length > 0 && (input.level === 'aggressive' || tokensOf(folds, total, input.budget) > input.budget)) {
    const common = commonSummary(log);
    const summaries = [
      { keep: () => true, common: null },
      ...(common ? [{ keep: (l: string) => l.trim() !== common.line, common }] : []),
      { keep: () => false, common: null },
    ];
    const ladder = [true, false].flatMap((files) => summaries.map((step) => ({ ...step, files })));
    compact ??= compactor(log);
    for (const step of ladder) {
      checkDeadline('gitlog', input.expired);
      folds = compact({ keepSummary: step.keep, files: step.files });
      total = totals(log.stats, step.common, !step.files);
      if (tokensOf(folds, total, input.budget) <= input.budget) break;
    }
  }
  // Over the ceiling every commit line stays (they are the skeleton): the stat
  // summaries leave the markers (the totals keep their sum) and the subjects
  // in them are cut to the widest that fits with the files they name (a binary
  // search from MIN_SUBJECT to git's subject width); below MIN_SUBJECT the
  // files go (the totals then name where the stats changed), then the authors
  // and dates (a subject says what a commit did, they do not), and the
  // subjects get the widest that fits. When none fits, the oldest commits go,
  // named by their hash range, and those kept show MIN_SUBJECT of their subjects.
  if (commits.length > 0 && tokensOf(folds, total, input.maxTokens) > input.maxTokens) {
    const folder = (compact ??= compactor(log));
    // Each try's folds by form: the search ends on a width it tried, whose marker costs are summed already.
    const tried = new Map<string, { folds: Fold[]; total: string | null }>();
    const fits = (width: number, files: boolean, byline: boolean) => {
      const key = `${width} ${files} ${byline}`;
      let attempt = tried.get(key);
      if (attempt === undefined) {
        const how = { keepSummary: () => false, subjectChars: width, files, byline };
        tried.set(key, (attempt = { folds: folder(how), total: totals(log.stats, null, !files) }));
      }
      ({ folds, total } = attempt);
      return tokensOf(folds, total, input.maxTokens) <= input.maxTokens;
    };
    /** The widest subject from `lo` up to git's width that fits (a binary search), or -1. */
    const widest = (lo: number, files: boolean, byline: boolean): number => {
      if (!fits(lo, files, byline)) return -1;
      let hi = SUBJECT_CHARS + 1;
      while (hi - lo > 1) {
        checkDeadline('gitlog', input.expired);
        const mid = (lo + hi) >>> 1;
        if (fits(mid, files, byline)) lo = mid;
        else hi = mid;
      }
      return lo;
    };
    const withFiles = widest(MIN_SUBJECT, true, true);
    const withByline = withFiles >= 0 ? -1 : widest(MIN_SUBJECT, false, true);
    if (withFiles >= 0) fits(withFiles, true, true);
    else if (withByline >= 0) fits(withByline, false, true);
    else {
      // When even bare markers are over, older commits go (below): those kept say what they did.
      const bare = widest(0, false, false);
      fits(bare >= 0 ? bare : MIN_SUBJECT, false, false);
    }
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
    shown.push(...aroundKept(cut, log, (from, to) => olderCommits(older, from, to)));
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
