// The grep processor: grep -rn / git grep -n / rg (flat or --heading) / grep -n
// on one file / DSH's own grep tool (`Found N matches`, a path line, then
// `Line N: text`). Every match keeps its `path:line` and its text, byte-identical;
// minified lines are cut to a window around the match; under pressure context
// lines go first, identical match texts collapse into one line with all their
// locations, then every file is named (a shown match or a count per file in a
// gap's marker) and runs of matches spread evenly across the output fill the
// rest, the first match of each shape first; with too many files to name,
// files keep their first matches and the rest are counted per file.
import { estimateFor, exactCosts, type OutputCosts } from '../costs.js';
import { RE2JS } from 're2js';
import { countRuns, type TextAnalysis } from '../../engine/index.js';
import type { Omitted, Processor, ProcessorInput, ProcessorOutput, Skeleton } from '../../types.js';
import { deadlineTick, ProcessorError, type Tick } from '../errors.js';
import { analysedLines, largestFitting, renderOnce, targetOf, textLines } from '../fit.js';
import { charsCut, count, linesOmission, note, omittedLines, type PlacedOmission, plural } from '../markers.js';
import { keepPreserved } from '../keep-preserved.js';
import { evenRuns } from '../spread.js';

type RowKind = 'match' | 'context' | 'file' | 'separator' | 'other';

interface Row {
  readonly kind: RowKind;
  /** Index into `files`, -1 when the output names no file (grep -n on one file). */
  readonly file: number;
  /** Line number in that file, 0 when grep printed none. */
  readonly line: number;
  /** Characters before the matched line's text in the raw output line. */
  readonly prefix: number;
}

interface Parsed {
  readonly raw: readonly string[];
  readonly rows: readonly Row[];
  readonly files: readonly string[];
}

/** Lines longer than this (minified code) are cut to a window around the match. */
const LONG_LINE = 400;
/** Characters kept on each side of the match in a cut line. */
const WINDOW = 100;
/** Distinct match texts a file keeps before files past the budget are only counted. */
const PER_FILE_FLOOR = 3;

/**
 * Consecutive matches a spread shows together: a gap's marker costs about a
 * match line, so runs spend the budget on matches rather than on markers, and
 * a run shows a stretch of a file's hits. Fitted on the everyday corpus: on
 * its three greps over budget, runs of 1 showed 30% of the matches' locations
 * and texts, runs of 4 37%, of 8 39%, of 12 and 16 38-39%.
 */
const SPREAD_RUN = 8;
/**
 * Share of the budget a spread fills: its tries come near the budget where
 * the per-file ladder's coarser steps stopped short. Fitted on the everyday
 * corpus to keep its grep reduction where the ladder had it.
 */
const SPREAD_SHARE = 0.96;
/**
 * Match texts repeat their shapes when there are at most this many shapes per
 * match (the analysis record's rule for shape rarity: at most 3 shapes per 10
 * lines): then a shape's first match is evidence a spread shows before its runs.
 */
const SHAPES_REPEAT = 0.3;
const TOOL_CUT = ' (line truncated)';
const DSH_HEADER = /^Found [\d,]+(?: of [\d,]+)? match(?:es)?\b/;
const DSH_LINE = /^Line (\d+): /;
const NUMBERED = /^(\d+)([:-])/;
// A path has no whitespace, commas or semicolons (CSV rows and log lines with clock times do).
const FLAT_MATCH = /^([^\s:,;]+?):(\d+):(?:\d+:)?/;
/** `path:` before a match without a line number (`grep -r` without -n); namesAFile() checks the path. */
const NO_NUMBER = /^([^\s:]+):/;
/** A path is longer than this in no real grep output: longer prefixes are not looked at (hostile lines). */
const MAX_PATH = 4096;

/**
 * A path with a slash followed by more, or a file name with an extension.
 * (Checked apart from NO_NUMBER: one regex with both alternatives backtracks
 * quadratically on a long line full of slashes.)
 */
function namesAFile(path: string): boolean {
  const slash = path.indexOf('/');
  if (slash !== -1 && slash < path.length - 1) return true;
  return /^[^/]+\.\w{1,10}$/.test(path.slice(path.lastIndexOf('/') + 1));
}

function row(kind: RowKind, file = -1, line = 0, prefix = 0): Row {
  return { kind, file, line, prefix };
}

class FileTable {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  id(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.names.push(name);
      this.index.set(name, i);
    }
    return i;
  }
  has(name: string): boolean {
    return this.index.has(name);
  }
}

/** DSH grep: `Found N matches`, blank, path, `Line N: text`…, blank, path… */
function parseDsh(lines: readonly string[], files: FileTable): Row[] {
  let file = -1;
  return lines.map((l, i) => {
    const m = DSH_LINE.exec(l);
    if (m && file >= 0) return row('match', file, Number(m[1]), m[0].length);
    if (l.trim() === '') return row('separator');
    if (i > 0 && DSH_LINE.test(lines[i + 1] ?? '')) return row('file', (file = files.id(l)), 0, 0);
    return row('other');
  });
}

/** rg --heading and grep -n on one file: `N:text` / `N-text`, under path lines when there are several files. */
function parseNumbered(lines: readonly string[], files: FileTable): Row[] {
  let file = -1;
  return lines.map((l, i) => {
    const m = NUMBERED.exec(l);
    if (m) return row(m[2] === ':' ? 'match' : 'context', file, Number(m[1]), m[0].length);
    if (l === '--' || l.trim() === '') return row('separator');
    if (NUMBERED.test(lines[i + 1] ?? '')) return row('file', (file = files.id(l)), 0, 0);
    return row('other');
  });
}

/** grep -rn, git grep -n, rg without heading: `path:N:text`, `path-N-text`, `path:text`, `--`. */
function parseFlat(lines: readonly string[], files: FileTable): Row[] {
  const rows = lines.map((l): Row | null => {
    if (l === '--' || l.trim() === '') return row('separator');
    const m = FLAT_MATCH.exec(l);
    if (m) return row('match', files.id(m[1]!), Number(m[2]), m[0].length);
    return null;
  });
  // Context lines (`path-N-text`) are told apart from match text by a path the matches named.
  return rows.map((r, i) => {
    if (r) return r;
    const l = lines[i]!;
    for (const m of l.matchAll(/-(\d+)-/g)) {
      if (m.index > MAX_PATH) break;
      const path = l.slice(0, m.index);
      if (files.has(path)) return row('context', files.id(path), Number(m[1]), m.index + m[0].length);
    }
    const p = NO_NUMBER.exec(l.slice(0, MAX_PATH + 1));
    if (p && namesAFile(p[1]!)) return row('match', files.id(p[1]!), 0, p[0].length);
    return row('other');
  });
}

function parseLines(raw: readonly string[], tick: Tick): Parsed {
  const lines = raw.map((l) => {
    tick();
    return l.endsWith('\r') ? l.slice(0, -1) : l;
  });
  const files = new FileTable();
  const first = lines.find((l) => l.trim() !== '') ?? '';
  let rows: Row[];
  if (DSH_HEADER.test(first)) rows = parseDsh(lines, files);
  else {
    const sample = lines.slice(0, 400);
    const numbered = sample.filter((l) => NUMBERED.test(l)).length;
    const flat = sample.filter((l) => FLAT_MATCH.test(l)).length;
    rows = numbered > flat ? parseNumbered(lines, files) : parseFlat(lines, files);
  }
  return { raw, rows, files: files.names };
}

/** Finds the matched span in a line's text: the tool's pattern when known, else the text every short match shares. */
function matchFinder(parsed: Parsed, pattern: string | undefined): (text: string) => [number, number] | null {
  if (pattern !== undefined && pattern !== '') {
    const regex = compile(pattern);
    return (text) => {
      if (!regex) {
        const at = text.indexOf(pattern);
        return at < 0 ? null : [at, at + pattern.length];
      }
      const m = regex.matcher(text);
      return m.find() ? [m.start(), m.end()] : null;
    };
  }
  const anchor = sharedToken(parsed);
  return (text) => {
    if (anchor === null) return null;
    const at = text.indexOf(anchor);
    return at < 0 ? null : [at, at + anchor.length];
  };
}

/**
 * A ripgrep pattern as RE2 (ripgrep's own syntax family; re2js matches in
 * linear time, so a pattern the model wrote cannot stall on a long line), or
 * null when RE2 refuses it (then it is looked for as a literal).
 */
function compile(pattern: string): RE2JS | null {
  try {
    return RE2JS.compile(pattern);
  } catch {
    return null;
  }
}

/**
 * Without the pattern: the token of the shortest match line that most match
 * lines contain (the longest on a tie), which is almost always the searched text.
 */
function sharedToken(parsed: Parsed): string | null {
  const texts: string[] = [];
  parsed.rows.forEach((r, i) => {
    if (r.kind === 'match' && texts.length < 200) texts.push(parsed.raw[i]!.slice(r.prefix));
  });
  const short = texts.filter((t) => t.length <= LONG_LINE).sort((a, b) => a.length - b.length);
  if (short.length === 0) return null;
  let best: string | null = null;
  let bestCount = 0;
  for (const token of new Set(short[0]!.match(/[\w$]+|[^\s\w$]+/g) ?? [])) {
    if (token.length < 2 && /\w/.test(token)) continue;
    const n = texts.filter((t) => t.includes(token)).length;
    if (n > bestCount || (n === bestCount && best !== null && token.length > best.length)) {
      best = token;
      bestCount = n;
    }
  }
  return best;
}

/** Moves an index off the second half of a surrogate pair. */
function boundary(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/** A long line cut to its prefix and a window around the match, each cut marked with its size. */
function cutLine(line: string, prefix: number, find: (text: string) => [number, number] | null): string {
  // DSH grep marks a preview it capped itself: that note stays at the end.
  const note = line.endsWith(TOOL_CUT) ? TOOL_CUT : '';
  const text = line.slice(prefix, line.length - note.length);
  if (text.length <= LONG_LINE) return line;
  const [start, end] = find(text) ?? [0, 0];
  const from = boundary(text, Math.max(0, start - WINDOW));
  const to = boundary(text, Math.min(text.length, Math.max(end, start + 2 * WINDOW) + WINDOW));
  const before = from > 0 ? charsCut(from) : '';
  const after = to < text.length ? charsCut(text.length - to) : '';
  return `${line.slice(0, prefix)}${before}${text.slice(from, to)}${after}${note}`;
}

/** How much of the text a rendering shows (see `render`). */
interface Detail {
  /** Context lines and every repeat of a match text shown. */
  readonly all: boolean;
  /** Distinct match texts shown per file, in order. */
  readonly perFile: number;
  /** Files (in order of appearance) that show any match. */
  readonly files: number;
  /** Locations listed per collapsed text, before `+N more`. */
  readonly list: number;
  /** Files named with their counts per count marker, before `+N more`. */
  readonly counted: number;
  /** Texts found at this many locations or more show past the file cutoff (one line covers them all). */
  readonly shared?: number;
  /** Hidden matches named by their `path:line` per count marker, before the rest are counted per file. */
  readonly located?: number;
  /**
   * Match lines shown, spread evenly over all of them (in place of `perFile`
   * and `files`): every other match is counted per file in the markers.
   */
  readonly spread?: number;
}

const EVERYTHING: Detail = { all: true, perFile: Infinity, files: Infinity, list: Infinity, counted: Infinity };

class GrepView {
  private readonly locations: string[];
  /** For each row, the first row with the same match text (itself when first). */
  private readonly first: Int32Array;
  private readonly repeats = new Map<number, number[]>();
  /** For each first-of-its-text match row, how many locations share its text (1 elsewhere). */
  private readonly sharedBy: Int32Array;
  /** The distinct values of sharedBy, ascending: the `shared` settings that differ. */
  private readonly sharedCounts: number[];
  /** The rows shown at the latest detail asked (a try is priced, then rendered, at one detail). */
  private lastShown: { detail: Detail | null; show: Uint8Array } = { detail: null, show: new Uint8Array(0) };
  /** For each first-of-its-text match row, its rank among its file's distinct texts. */
  private readonly rank: Int32Array;
  private readonly fileOrder: Int32Array;
  private readonly forced: Uint8Array;
  private readonly shown: string[];
  /** Paths stand on their own lines above their matches (rg --heading, DSH grep). */
  private readonly headed: boolean;
  /** The match rows, in order. */
  private readonly matchRows: number[] = [];
  /**
   * The first match row of each shape of match text (digits masked: `entity 7`
   * and `entity 118` are one shape), rarest shape first, when the shapes
   * repeat (see SHAPES_REPEAT); else empty. A spread shows these first.
   */
  private readonly shapeFirsts: number[] = [];
  /** The rows `spread` shows, for the latest count asked. */
  private spreadRows = { k: -1, shown: new Uint8Array(0) };
  /** Each text's first match row: what a spread picks among. */
  private readonly distinctMatches: number[];
  /** Each file's first distinct match row. */
  private readonly fileFirsts: number[];
  cut = 0;
  /** Per row, milli-tokens of its line as shown, with its break (when the costs are exact). */
  private readonly shownMilli: Float64Array | null;

  constructor(
    private readonly parsed: Parsed,
    find: (text: string) => [number, number] | null,
    preserve: readonly string[],
    private readonly tick: Tick,
    private readonly costs: OutputCosts | null,
  ) {
    const { raw, rows, files } = parsed;
    this.headed = rows.some((r) => r.kind === 'file');
    this.locations = rows.map((r) => location(r, files));
    this.first = new Int32Array(rows.length).fill(-1);
    this.rank = new Int32Array(rows.length).fill(-1);
    this.fileOrder = new Int32Array(files.length + 1).fill(-1);
    this.forced = new Uint8Array(rows.length);
    const byText = new Map<string, number>();
    const byShape = new Map<string, { first: number; rows: number }>();
    const perFile = new Map<number, number>();
    let order = 0;
    this.shown = raw.map((line, i) => {
      tick();
      const r = rows[i]!;
      if (r.kind === 'match' || r.kind === 'context') {
        if (this.fileOrder[r.file + 1] === -1) this.fileOrder[r.file + 1] = order++;
        if (preserve.some((p) => p !== '' && line.includes(p))) this.forced[i] = 1;
      }
      if (r.kind === 'match') {
        this.matchRows.push(i);
        const key = line.slice(r.prefix).trim();
        const shape = key.replace(/\d+/g, '0');
        const same = byShape.get(shape);
        if (same) same.rows++;
        else byShape.set(shape, { first: i, rows: 1 });
        const seen = byText.get(key);
        if (seen === undefined) {
          byText.set(key, i);
          this.first[i] = i;
          const n = perFile.get(r.file) ?? 0;
          this.rank[i] = n;
          perFile.set(r.file, n + 1);
        } else {
          this.first[i] = seen;
          const list = this.repeats.get(seen) ?? [];
          list.push(i);
          this.repeats.set(seen, list);
        }
      }
      const shown = r.kind === 'match' || r.kind === 'context' ? cutLine(line, r.prefix, find) : line;
      if (shown !== line) this.cut++;
      return shown;
    });
    this.sharedBy = new Int32Array(rows.length).fill(1);
    for (const [first, list] of this.repeats) this.sharedBy[first] = list.length + 1;
    this.distinctMatches = this.matchRows.filter((j) => this.first[j] === j);
    this.sharedCounts = [...new Set(this.distinctMatches.map((j) => this.sharedBy[j]!))].sort((a, b) => a - b);
    this.fileFirsts = this.distinctMatches.filter((j) => this.rank[j] === 0);
    if (byShape.size <= SHAPES_REPEAT * this.matchRows.length) {
      const shapes = [...byShape.values()].sort((x, y) => x.rows - y.rows || x.first - y.first);
      for (const { first } of shapes) this.shapeFirsts.push(first);
    }
    this.shownMilli =
      costs &&
      Float64Array.from(raw, (line, i) => (this.shown[i] === line ? costs.lines(i, i) : costs.piece(this.shown[i]!)));
  }

  /**
   * Whether the lines `d` shows alone, without the markers between them,
   * already cost more than `limit` tokens: then its output is over, and a
   * budget search need not render it (most of its tries are far over). False
   * when the costs are not the estimator's own.
   */
  surelyOver(d: Detail, limit: number): boolean {
    const { shownMilli, costs } = this;
    if (!shownMilli || !costs) return false;
    const { rows } = this.parsed;
    const show = this.rowsShown(d);
    let milli = 0;
    for (let i = 0; i < rows.length; i++) if (show[i]) milli += shownMilli[i]!;
    // The output's last line has no break after it: less the dearer break, a floor of its estimate.
    const lastBreak = Math.max(costs.breakAfter(false), costs.breakAfter(true));
    return (milli - lastBreak) / 1000 > limit;
  }

  /** A row as shown: long match and context lines cut around the match. */
  display(i: number): string {
    return this.shown[i]!;
  }

  /** Locations of the most repeated match text (1 when none repeats). */
  get mostShared(): number {
    let most = 1;
    for (const list of this.repeats.values()) most = Math.max(most, list.length + 1);
    return most;
  }

  get matchCount(): number {
    return this.matchRows.length;
  }

  /**
   * Whether match row i is among the `k` shown: the first of each text shape
   * where shapes repeat, each file's first text while files are at most half
   * of k, then runs spread evenly over the rest. Only a text's first
   * occurrence is shown (its repeats are counted in the markers like any
   * hidden match), so k lines are k distinct texts.
   */
  private spread(i: number, k: number): boolean {
    if (this.spreadRows.k !== k) {
      const shown = new Uint8Array(this.parsed.rows.length);
      const { distinctMatches, fileFirsts } = this;
      const seeds = [...this.shapeFirsts, ...(fileFirsts.length <= k / 2 ? fileFirsts : [])];
      let seeded = 0;
      for (const j of seeds) {
        if (seeded === k) break;
        if (!shown[j]) seeded++;
        shown[j] = 1;
      }
      const rest = distinctMatches.filter((j) => !shown[j]);
      // Two runs at least, so the tail shows beside the head.
      const run = Math.min(SPREAD_RUN, Math.ceil((k - seeded) / 2));
      for (const j of evenRuns(rest.length, k - seeded, Math.max(1, run))) shown[rest[j]!] = 1;
      this.spreadRows = { k, shown };
    }
    return this.spreadRows.shown[i] === 1;
  }

  get maxPerFile(): number {
    return this.rank.reduce((a, b) => Math.max(a, b + 1), 1);
  }

  get fileCount(): number {
    return this.parsed.files.length + 1;
  }

  private visible(i: number, d: Detail): boolean {
    const r = this.parsed.rows[i]!;
    if (d.all || this.forced[i]) return true;
    switch (r.kind) {
      case 'match':
        if (d.spread !== undefined) return this.spread(i, d.spread);
        return (
          this.first[i] === i &&
          this.rank[i]! < d.perFile &&
          (this.fileOrder[r.file + 1]! < d.files || this.sharedBy[i]! >= (d.shared ?? Infinity))
        );
      case 'context':
        return false;
      case 'other':
        return true;
      default:
        return false; // file headers and separators follow what they frame (see render)
    }
  }

  /**
   * `d` with `shared` moved up to the next count some text has: texts show
   * by `shared` alone, so the two render alike, and a search over `shared`
   * renders once per count that exists, not once per try.
   */
  normalized(d: Detail): Detail {
    if (d.shared === undefined) return d;
    const shared = d.shared;
    return { ...d, shared: this.sharedCounts.find((c) => c >= shared) ?? Infinity };
  }

  /** Per row, 1 where it shows at `d` (its framing included). */
  private rowsShown(d: Detail): Uint8Array {
    if (this.lastShown.detail === d) return this.lastShown.show;
    const { rows } = this.parsed;
    const show = new Uint8Array(rows.length);
    for (let i = 0; i < rows.length; i++) if (this.visible(i, d)) show[i] = 1;
    if (!d.all) frame(rows, show);
    this.lastShown = { detail: d, show };
    return show;
  }

  render(d: Detail): ProcessorOutput {
    const { raw } = this.parsed;
    const show = this.rowsShown(d);
    const out: string[] = [];
    const omissions: PlacedOmission[] = [];
    const omitted = { matches: 0, context: 0, repeats: 0 };
    let gapFrom = -1;
    const closeGap = (to: number) => {
      if (gapFrom < 0) return;
      const marker = this.gapMarker(gapFrom, to, show, d);
      // A lone hidden line no longer than its marker is cheaper shown (where no
      // file header line is needed above it to say whose line it is).
      const lone =
        gapFrom === to && !this.headed && !this.repeats.has(to) && this.shown[to]!.length <= marker.text.length;
      if (lone) {
        out.push(this.shown[to]!);
        gapFrom = -1;
        return;
      }
      out.push(marker.text);
      omissions.push(linesOmission(gapFrom, to + 1));
      omitted.matches += marker.matches;
      omitted.context += marker.context;
      gapFrom = -1;
    };
    for (let i = 0; i < raw.length; i++) {
      this.tick();
      if (!show[i]) {
        if (gapFrom < 0) gapFrom = i;
        continue;
      }
      closeGap(i - 1);
      out.push(this.shown[i]!);
      // A spread counts repeats of a text like any match, in the markers of the gaps they are in.
      const repeats = d.all || d.spread !== undefined ? undefined : this.repeats.get(i)?.filter((j) => !show[j]);
      if (repeats && repeats.length > 0) {
        out.push(
          `[… same text at ${count(repeats.length)} more: ${listed(
            repeats.map((j) => this.locations[j]!),
            d.list,
          )} …]`,
        );
        omitted.repeats += repeats.length;
      }
    }
    closeGap(raw.length - 1);
    const result: Omitted = {};
    if (omitted.matches) result['matching lines (counted per file)'] = omitted.matches;
    if (omitted.context) result['context lines'] = omitted.context;
    if (omitted.repeats) result['repeated match texts (locations listed)'] = omitted.repeats;
    if (this.cut) result['long lines cut to the match'] = this.cut;
    return { text: out.join('\n'), omitted: result, omissions };
  }

  /**
   * The marker for hidden rows [from, to]: the first `located` hidden matches
   * by `path:line`, the rest counted per file; repeats already listed; context.
   */
  private gapMarker(
    from: number,
    to: number,
    show: Uint8Array,
    d: Detail,
  ): { text: string; matches: number; context: number } {
    const { rows, files } = this.parsed;
    const hidden: number[] = [];
    let context = 0;
    let repeats = 0;
    for (let i = from; i <= to; i++) {
      const r = rows[i]!;
      if (r.kind === 'context') context++;
      else if (r.kind === 'match') {
        if (d.spread === undefined && this.first[i] !== i && show[this.first[i]!]) repeats++;
        else hidden.push(i);
      }
    }
    const matches = hidden.length;
    // Only repeats of texts shown above: the marker still names their lines.
    if (matches + context === 0)
      return { text: omittedLines(from, to + 1, plural(repeats, 'repeat')), matches, context };
    const parts = [
      matches ? plural(matches, 'match', 'matches') : '',
      context ? `${count(context)} context` : '',
      repeats ? `${count(repeats)} repeats listed above` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const located = hidden.slice(0, d.located ?? 0);
    // Counted by runs of one file: grep prints a file's matches together.
    const perFile = new Map<number, number>();
    countRuns(located.length, hidden.length, (k) => rows[hidden[k]!]!.file, perFile);
    const counts = [...perFile].map(([f, n]) => `${f < 0 ? '(this file)' : files[f]} ${count(n)}`);
    const rest = matches - located.length;
    let where = '';
    if (located.length > 0) where = ` at ${located.map((i) => this.locations[i]).join(', ')}`;
    if (counts.length > 0) {
      const what = located.length > 0 ? `; ${plural(rest, 'other', 'others')}` : '';
      where += `${what} in ${plural(counts.length, 'file')}: ${listed(counts, d.counted)}`;
    }
    return { text: omittedLines(from, to + 1, `${parts}${where}`), matches, context };
  }
}

/** File headers show when a row of their file shows; the blank line before a shown header, when anything precedes it. */
function frame(rows: readonly Row[], show: Uint8Array): void {
  let fileShows = false;
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.kind === 'file') {
      show[i] = fileShows ? 1 : 0;
      fileShows = false;
    } else if (show[i] && (r.kind === 'match' || r.kind === 'context')) fileShows = true;
  }
  let before = false;
  for (let i = 0; i < rows.length; i++) {
    if (rows[i]!.kind === 'separator' && rows[i + 1]?.kind === 'file') show[i] = before && show[i + 1] === 1 ? 1 : 0;
    if (show[i]) before = true;
  }
}

function location(r: Row, files: readonly string[]): string {
  const path = r.file >= 0 ? files[r.file]! : '';
  if (r.line === 0) return path;
  return path === '' ? `line ${r.line}` : `${path}:${r.line}`;
}

function listed(items: readonly string[], limit: number): string {
  if (items.length <= limit) return items.join(', ');
  return `${items.slice(0, limit).join(', ')}, +${count(items.length - limit)} more`;
}

function process(input: ProcessorInput): ProcessorOutput {
  const tick = deadlineTick('grep', input.expired);
  const parsed = parseLines(textLines(input), tick);
  const matches = parsed.rows.filter((r) => r.kind === 'match').length;
  if (matches === 0) throw new ProcessorError('grep', 'no match lines');
  const target = targetOf(input);
  const estimate = estimateFor(input);
  if (input.level === 'lossless' && estimate(input.text) <= target)
    return { text: input.text, omitted: {}, omissions: [] };
  // Rows are priced by the analysis' per-line costs where they are its lines.
  const costs = analysedLines(input, parsed.raw) ? exactCosts(input) : null;
  const view = new GrepView(parsed, matchFinder(parsed, input.pattern), input.preserve, tick, costs);
  const rendered = renderOnce((d: Detail) => view.render(d));
  const render = (d: Detail) => rendered(view.normalized(d));
  const fitsIn = (d: Detail, limit: number) => {
    const normal = view.normalized(d);
    return !view.surelyOver(normal, limit) && estimate(rendered(normal).text) <= limit;
  };
  const fits = (d: Detail) => fitsIn(d, target);
  const ladder = (): Detail => {
    if (fits(EVERYTHING)) return EVERYTHING;
    const distinct: Detail = { all: false, perFile: Infinity, files: Infinity, list: Infinity, counted: Infinity };
    if (fits(distinct)) return distinct;
    // Structure first: every file named with its matches (a shown line, or a
    // count in the marker of a gap), then as many matches as fit, in runs
    // spread evenly across the output rather than the head of each file.
    // When the file names alone, or one match with every file named, are over, no search is made.
    const spread: Detail = { ...distinct, spread: 1 };
    const within = (d: Detail) => fitsIn(d, SPREAD_SHARE * target);
    if (estimate(parsed.files.join(' 1, ')) <= SPREAD_SHARE * target && within(spread))
      return { ...spread, spread: largestFitting(1, view.matchCount, (k) => within({ ...spread, spread: k })) };
    // Too many files to name each: big files keep their first distinct texts
    // (down to a few), then files past the budget are counted, then the first
    // file's texts shrink.
    const short = { ...distinct, list: 20, counted: 20 };
    const perFile = largestFitting(PER_FILE_FLOOR, view.maxPerFile, (k) => fits({ ...short, perFile: k }));
    if (fits({ ...short, perFile })) return { ...short, perFile };
    // Texts shared by the most locations go first (one line covers them all),
    // up to half the budget; then files in order keep their first texts.
    let sampled: Detail = { ...short, perFile: PER_FILE_FLOOR, files: 1, counted: 5 };
    const most = view.mostShared;
    if (most >= 2) {
      const half = (d: Detail) => fitsIn(d, target / 2);
      const shared = most - largestFitting(0, most - 2, (k) => half({ ...sampled, shared: most - k }));
      if (half({ ...sampled, shared })) sampled = { ...sampled, shared };
    }
    const files = largestFitting(1, view.fileCount, (f) => fits({ ...sampled, files: f }));
    if (fits({ ...sampled, files })) {
      // A location costs a fraction of its line: past the files whose texts fill
      // 60% of the budget, hidden matches are named by path:line where they fit.
      const texts = largestFitting(1, files, (f) => fitsIn({ ...sampled, files: f }, 0.6 * target));
      const located = largestFitting(0, view.matchCount, (n) => fits({ ...sampled, files: texts, located: n }));
      return located > 0 ? { ...sampled, files: texts, located } : { ...sampled, files };
    }
    const first: Detail = { ...sampled, files: 1, list: 3, counted: 3, shared: Infinity };
    return { ...first, perFile: largestFitting(1, PER_FILE_FLOOR, (k) => fits({ ...first, perFile: k })) };
  };
  let { text, omitted, omissions } = render(ladder());
  text = keepPreserved(text, input.text, input.preserve);
  if (estimate(text) > input.maxTokens)
    ({ text, omitted, omissions } = minimal(view, parsed, matches, (t) => estimate(t) <= input.maxTokens));
  if (estimate(text) >= estimate(input.text)) return { text: input.text, omitted: {}, omissions: [] };
  return { text, omitted, omissions };
}

/**
 * The last resort under the ceiling: the shortest match line (cut if long),
 * its file's header line in heading formats, and one count of the rest.
 */
function minimal(view: GrepView, parsed: Parsed, matches: number, fits: (text: string) => boolean): ProcessorOutput {
  let best = -1;
  parsed.rows.forEach((r, i) => {
    if (r.kind === 'match' && (best < 0 || view.display(i).length < view.display(best).length)) best = i;
  });
  const r = parsed.rows[best]!;
  const header = parsed.rows.findIndex((h) => h.kind === 'file' && h.file === r.file);
  const more = `${plural(matches - 1, 'more match', 'more matches')} in ${plural(Math.max(1, parsed.files.length), 'file')}`;
  const rest = omittedLines(0, parsed.raw.length, more);
  // The lines shown in place, each gap around them a marker naming its lines.
  const keep = [...new Set([header, best])].filter((i) => i >= 0).sort((a, b) => a - b);
  const shown: string[] = [];
  const gaps: PlacedOmission[] = [];
  let from = 0;
  for (const i of keep) {
    if (i > from) {
      shown.push(omittedLines(from, i));
      gaps.push(linesOmission(from, i));
    }
    shown.push(i === best ? view.display(best) : parsed.raw[i]!);
    from = i + 1;
  }
  if (from < parsed.raw.length) {
    shown.push(omittedLines(from, parsed.raw.length));
    gaps.push(linesOmission(from, parsed.raw.length));
  }
  shown.push(note(more));
  const whole = shown.join('\n');
  const text = fits(whole) ? whole : rest;
  return {
    text,
    omitted: { 'matching lines (counted)': text === rest ? matches : matches - 1 },
    omissions: text === rest ? [linesOmission(0, parsed.raw.length)] : gaps,
  };
}

/**
 * Share of the first 200 lines the grep parser reads as matches, context or
 * their framing, scaled by how distinct the path:line pairs are (log lines
 * whose timestamp reads as `name:13:53:08` repeat one pair). grep -n on one
 * file (`12:text`) is only a maybe: numbered lines are common elsewhere.
 */
function sniff(analysis: TextAnalysis): number {
  const { raw, rows, files } = parseLines(analysis.headLines(200), () => {}); // 200 lines: no deadline to ask
  const content = rows.filter((r) => r.kind !== 'separator');
  if (content.length === 0) return 0;
  const hits = content.filter((r) => r.kind === 'match' || r.kind === 'context');
  if (hits.length === 0) return 0;
  // File lines and the DSH tool's `Found N matches` head frame the hits.
  const framing = rows.filter((r, i) => r.kind === 'file' || (i === 0 && DSH_HEADER.test(raw[0]!))).length;
  const pairs = new Set(hits.map((r) => `${r.file}:${r.line}`)).size;
  const share = (hits.length + framing) / content.length;
  const distinct = Math.min(1, (2 * pairs) / hits.length);
  // Paths name directories or files with extensions; a bare `name:12:` is less sure, and tsc's
  // `src/a.ts(4,26)` or a path with spaces is a diagnostic's or a log's, not a grep hit's.
  const pathy =
    files.length === 0
      ? 0.4
      : files.filter((f) => /[/\\]|\.\w{1,10}$/.test(f) && !/[\s()]/.test(f)).length / files.length;
  return share * distinct * (0.6 + 0.4 * pathy);
}

/**
 * The lines that say where the matches are, kept first over the ceiling:
 * DSH's `Found N matches` head, the file header lines of heading formats
 * (rg --heading, DSH grep), and in flat formats each file's first match line
 * (the line that names it), placed by its directory. Read through the grep parser
 * (its regexes on each line), as `process` reads the text.
 */
function grepSkeleton(analysis: TextAnalysis): Skeleton {
  const lines = Array.from({ length: analysis.lines.count }, (_, i) => analysis.line(i));
  const { raw, rows, files } = parseLines(lines, () => {});
  const head = rows.findIndex((r) => r.kind !== 'separator');
  const counts = head >= 0 && DSH_HEADER.test(raw[head]!) ? [head] : [];
  const headers = rows.flatMap((r, i) => (r.kind === 'file' ? [i] : []));
  const firsts: number[] = [];
  if (headers.length === 0) {
    const seen = new Uint8Array(files.length);
    rows.forEach((r, i) => {
      if (r.kind !== 'match' || r.file < 0 || seen[r.file]) return;
      seen[r.file] = 1;
      firsts.push(i);
    });
  }
  const directory = (i: number) => {
    const path = files[rows[i]!.file]!;
    return path.slice(0, path.lastIndexOf('/') + 1) || './';
  };
  const parts: Skeleton = [
    { name: 'match count line', lines: counts },
    { name: 'file header', lines: headers },
    { name: 'first match line', lines: firsts, places: firsts.map(directory) },
  ];
  return parts.filter((part) => part.lines.length > 0);
}

export const grepProcessor: Processor = {
  kind: 'grep',
  lineShaped: true,
  pathLines: 'prefix',
  fallback: 'log',
  tools: { grep: 'grep', search: 'grep' },
  commands: ['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'git grep'],
  sniff,
  process,
  skeleton: grepSkeleton,
};
