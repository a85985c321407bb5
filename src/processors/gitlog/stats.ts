// A log's per-file stat lines and stat summaries, read once per call: the
// budget search tries up to a dozen sets of folds over the same lines, and
// each names the same stats and sums the same summaries, so those are found
// once and every place list is made once per span.
import { count, plural } from '../markers.js';

export const STAT = /^ \S.*\|\s+(?:\d+|Bin\b)/;
const NAME_STATUS = /^[ACDMRTUX]\d*\t/;
export const SUMMARY = /^ (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?/;
/** Directories (or files alone in theirs) a folded stat names: enough to say where a commit touched. */
const STAT_PLACES = 4;
/** Places the totals name when no commit's marker names its files. */
const TOTAL_PLACES = 12;

/** A per-file stat or name-status line. */
function isStatLine(line: string): boolean {
  return STAT.test(line) || NAME_STATUS.test(line);
}

export class LogStats {
  /** statsBefore[i]: per-file stat lines among lines 0..i-1. */
  private readonly statsBefore: Int32Array;
  private readonly summary: Uint8Array;
  /** Lines that are stat summaries, in order. */
  readonly summaries: readonly number[];
  private readonly named = new Map<number, string>();
  private changedMost: string | undefined;
  /** Commits with a stat summary and their files, insertions and deletions summed. */
  readonly summed: { readonly commits: number; readonly sum: readonly [number, number, number] };

  constructor(private readonly content: readonly string[]) {
    this.statsBefore = new Int32Array(content.length + 1);
    this.summary = new Uint8Array(content.length);
    const summaries: number[] = [];
    const sum: [number, number, number] = [0, 0, 0];
    for (let i = 0; i < content.length; i++) {
      const line = content[i]!;
      const stat = isStatLine(line);
      this.statsBefore[i + 1] = this.statsBefore[i]! + (stat ? 1 : 0);
      const m = SUMMARY.exec(line);
      if (!m) continue;
      summaries.push(i);
      this.summary[i] = 1;
      for (let k = 0; k < 3; k++) sum[k]! += Number(m[k + 1] ?? 0);
    }
    this.summaries = summaries;
    this.summed = { commits: summaries.length, sum };
  }

  /** Whether line i is a per-file stat or name-status line. */
  isStat(i: number): boolean {
    return this.statsBefore[i + 1]! > this.statsBefore[i]!;
  }

  /** Whether line i is a stat summary (`3 files changed, 40 insertions(+)`). */
  isSummary(i: number): boolean {
    return this.summary[i] === 1;
  }

  /** Per-file stat lines among [from, to). */
  statsIn(from: number, to: number): number {
    return this.statsBefore[to]! - this.statsBefore[from]!;
  }

  /** `stat of 7 files: src/processors/ 4, test/unit/json.test.ts, docs/ 2`: the stat lines among [from, to). */
  statOf(from: number, to: number): string {
    const key = from * (this.content.length + 1) + to;
    let named = this.named.get(key);
    if (named === undefined) {
      const { stats, places } = this.placesOf(from, to, STAT_PLACES);
      named = `stat of ${plural(stats, 'file')}${stats > 0 ? `: ${places}` : ''}`;
      this.named.set(key, named);
    }
    return named;
  }

  /** The places all the stats changed, the most changed first (for the totals). */
  mostChanged(): string {
    this.changedMost ??= this.placesOf(0, this.content.length, TOTAL_PLACES, true).places;
    return this.changedMost;
  }

  /**
   * The per-file stat lines among [from, to) counted per directory, a file alone
   * in its directory by its path, as git printed it (a long path may start
   * `.../`): `src/processors/ 4, test/unit/json.test.ts, docs/ 2`, in the order
   * they first appear or, `byCount`, the most changed first; at most `limit`
   * places, then `+N more`. Also how many stat lines there were.
   */
  private placesOf(from: number, to: number, limit: number, byCount = false): { stats: number; places: string } {
    const dirs = new Map<string, string[]>();
    let stats = 0;
    for (let i = from; i < to; i++) {
      if (!this.isStat(i)) continue;
      const line = this.content[i]!;
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
}
