// Same-subject commits: in a log whose subjects repeat (a rebased series
// listed twice, `wip` and `fixup!` runs, bots' `Update X`), each subject is
// shown with its first (newest) commit, and the later commits with that subject
// become one marker naming their lines and their hashes as the log printed
// them (short in --oneline, whole in the full format: what `git show` takes),
// in few words (`same subject: fee8970, a43d160`), paid once per subject. It is lossless in
// what a model reads a log for (which changes, in which commits): only the
// repeated commits' author, date and body lines go, and retrieval has them.
import type { ProcessorOutput } from '../../types.js';
import { count, lineListOmissions, omittedLineList, type PlacedOmission } from '../markers.js';

/** A commit's lines [from, to] and its hash. */
export interface CommitSpan {
  readonly from: number;
  readonly to: number;
  readonly hash: string;
}

/** Hashes listed in one marker, at most. */
const MAX_HASHES = 24;
/** A fold must save at least this many characters beyond its marker's. */
const MIN_SAVED_CHARS = 20;

/**
 * The log with later same-subject commits folded (`subjectOf` reads a commit's
 * subject, null when it has none), or null when no subject repeats enough to pay
 * for its marker. `lines` are the log's lines as printed.
 */
export function foldSameSubjects(
  lines: readonly string[],
  commits: readonly CommitSpan[],
  subjectOf: (commit: CommitSpan) => string | null,
): ProcessorOutput | null {
  const bySubject = new Map<string, CommitSpan[]>();
  for (const commit of commits) {
    const subject = subjectOf(commit);
    if (subject === null || subject === '') continue;
    const same = bySubject.get(subject);
    if (same) same.push(commit);
    else bySubject.set(subject, [commit]);
  }
  /** Marker after the first commit's last line, by that line. */
  const markers = new Map<number, { text: string; indexes: number[] }>();
  const hidden = new Uint8Array(lines.length);
  let folded = 0;
  for (const [, same] of bySubject) {
    if (same.length < 2) continue;
    const later = same.slice(1);
    const indexes = later.flatMap((c) => Array.from({ length: c.to - c.from + 1 }, (_, k) => c.from + k));
    const hashes = later.slice(0, MAX_HASHES).map((c) => c.hash);
    const rest = later.length > MAX_HASHES ? `, and ${count(later.length - MAX_HASHES)} more` : '';
    const marker = omittedLineList(indexes, `same subject: ${hashes.join(', ')}${rest}`);
    const chars = indexes.reduce((sum, i) => sum + lines[i]!.length + 1, 0);
    if (chars < marker.length + MIN_SAVED_CHARS) continue;
    markers.set(same[0]!.to, { text: marker, indexes });
    for (const i of indexes) hidden[i] = 1;
    folded += indexes.length;
  }
  if (folded === 0) return null;
  const out: string[] = [];
  const omissions: PlacedOmission[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!hidden[i]) out.push(lines[i]!);
    const marker = markers.get(i);
    if (marker === undefined) continue;
    out.push(marker.text);
    omissions.push(...lineListOmissions(marker.indexes, i + 1));
  }
  return { text: out.join('\n'), omitted: { 'lines of same-subject commits': folded }, omissions };
}
