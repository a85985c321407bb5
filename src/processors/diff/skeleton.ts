// The skeleton of a diff or a git history (`git diff`, `git show`, `git log`
// with -p, --stat, --graph or --oneline): what a reader needs to know which
// commits and files a cut text spans. Read from the analysis' line slices
// with prefix checks; hunk bodies are skipped by their headers' line counts,
// so a changed line that looks like a header (`+++ x` adding `++ x`) is not one.
import type { TextAnalysis } from '../../engine/index.js';
import type { Skeleton, SkeletonPart } from '../../types.js';

export const FILE_START = /^diff (?:--git|--cc|--combined|-[a-zA-Z]*u)\s/;
export const HUNK = /^(@@+) -(\d+)(?:,(\d+))? .*?\+(\d+)(?:,(\d+))? @@+/;
/** --graph columns in front of a line: `* `, `| `, `|\`, `|/ `… */
const GRAPH = /^(?:[*|\\/_.-] ?)*/;
const COMMIT = /^commit [0-9a-f]{7,64}\b/;
const ONELINE = /^[0-9a-f]{7,64} \S/;
const HEADER = /^(?:Merge|Author|AuthorDate|Commit|CommitDate|Date|Reflog|Reflog message):/;
const STAT = /^ \S.*\|\s+(?:\d+|Bin\b)/;

/** The line after the hunk body starting under the header `hunk` at line `at`. */
function hunkEnd(content: (i: number) => string, count: number, at: number, hunk: RegExpExecArray): number {
  const width = hunk[1]!.length - 1;
  let oldLeft = width === 1 ? Number(hunk[3] ?? 1) : Infinity;
  let newLeft = Number(hunk[5] ?? 1);
  let j = at + 1;
  for (; j < count && (oldLeft > 0 || newLeft > 0); j++) {
    const body = content(j);
    if (body.startsWith('\\')) continue;
    const prefix = body.slice(0, width);
    if (body !== '' && !/^[ +-]+$/.test(prefix)) break;
    if (width > 1 && (FILE_START.test(body) || HUNK.test(body))) break;
    if (!prefix.includes('+')) oldLeft--;
    if (!prefix.includes('-')) newLeft--;
  }
  while (j < count && content(j).startsWith('\\')) j++;
  return j;
}

/** The directory a --stat line's file is in (`src/pipeline/`), `./` for the top. */
function directoryOf(stat: string): string {
  const path = stat.slice(1, stat.indexOf('|')).trim();
  const slash = path.lastIndexOf('/');
  return slash === -1 ? './' : path.slice(0, slash + 1);
}

/**
 * Parts, most important first: commit lines, their subjects, file headers
 * (`diff --git`, or a `---`/`+++` pair where none), --stat file names (by
 * directory), hunk headers, then the `---`/`+++` lines under `diff --git`.
 */
export function historySkeleton(analysis: TextAnalysis): Skeleton {
  const count = analysis.lines.count;
  let first = 0;
  while (first < count && analysis.line(first).trim() === '') first++;
  const graph = first < count && analysis.line(first).startsWith('* ');
  const content = graph
    ? (i: number) => {
        const line = analysis.line(i);
        return line.slice(GRAPH.exec(line)![0].length);
      }
    : (i: number) => analysis.line(i);
  const commits: number[] = [];
  const onelines: number[] = [];
  const subjects: number[] = [];
  const files: number[] = [];
  const stats: number[] = [];
  const places: string[] = [];
  const hunks: number[] = [];
  const names: number[] = [];
  /** After a commit line, before its subject. */
  let inHeader = false;
  /** A `diff` line opened the file section the next `---`/`+++` pair belongs to. */
  let gitFile = false;
  for (let i = 0; i < count; i++) {
    const line = content(i);
    const c = line.charCodeAt(0);
    if (line.startsWith('@@')) {
      const hunk = HUNK.exec(line);
      if (hunk) {
        hunks.push(i);
        i = hunkEnd(content, count, i, hunk) - 1;
        gitFile = false;
        continue;
      }
    }
    if (line.startsWith('commit ') && COMMIT.test(line)) {
      commits.push(i);
      inHeader = true;
      gitFile = false;
    } else if (inHeader && line.startsWith('    ')) {
      subjects.push(i);
      inHeader = false;
    } else if (line.startsWith('diff ') && FILE_START.test(line)) {
      files.push(i);
      inHeader = false;
      gitFile = true;
    } else if (line.startsWith('--- ') && i + 1 < count && content(i + 1).startsWith('+++ ')) {
      (gitFile ? names : files).push(i, i + 1);
      i++;
    } else if (c === 32 && line.includes('|') && STAT.test(line)) {
      stats.push(i);
      places.push(directoryOf(line));
    } else if (((c >= 48 && c <= 57) || (c >= 97 && c <= 102)) && ONELINE.test(line)) {
      onelines.push(i);
    } else if (inHeader && line !== '' && !HEADER.test(line)) inHeader = false;
  }
  const parts: SkeletonPart[] = [
    { name: 'commit line', lines: commits.length > 0 ? commits : onelines },
    { name: 'commit subject', lines: subjects },
    { name: 'file header', lines: files },
    { name: 'file name', lines: stats, places },
    { name: 'hunk header', lines: hunks },
    { name: '---/+++ line', lines: names },
  ];
  return parts.filter((part) => part.lines.length > 0);
}
