// The listing processor: ls (-l, -a, -R), find, fd, DSH glob, du and tree.
// Every shown line is an original line in its place; what is left out is
// counted per directory in markers naming its original lines, with the
// extension histogram of what went. Directory headers (`./src:`) stay; a
// directory with few entries keeps its names, a big one its rarest and
// largest entries (its small subdirectories it does not name are counted in
// its marker), a file alone of its kind in the whole listing shows at every
// detail; over budget the subtrees whose lines cost most fold whole.
import { estimateFor } from '../costs.js';
import { Anomaly, Column, MIN_ROWS, rareCategories, type TextAnalysis } from '../../engine/index.js';
import type { Omitted, Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import { nonBlankHead } from '../head.js';
import { checkDeadline, deadlineTick, ProcessorError, type Tick } from '../errors.js';
import { largestFitting, linesHolding, renderOnce, targetOf, textLines } from '../fit.js';
import {
  count,
  lineListOmissions,
  linesOmission,
  omittedLineList,
  omittedLines,
  type PlacedOmission,
  plural,
} from '../markers.js';
import { keepPreserved } from '../keep-preserved.js';
import { listingSkeleton, problemLines } from './skeleton.js';
import { spreadOrder } from '../spread.js';

/** One directory of the listing: its header line (if any) and its entries' lines. */
interface Dir {
  readonly path: string;
  readonly depth: number;
  readonly parent: Dir | null;
  header: number;
  /** The directory's path as the listing writes it (`./src`), when it differs from `path`. */
  label?: string;
  readonly entries: number[];
  readonly children: Dir[];
}

interface Entry {
  readonly dir: Dir;
  readonly name: string;
  readonly isDir: boolean;
  /** Bytes, when the listing shows sizes (ls -l, du). */
  readonly size: number | undefined;
  /** Its extension (see extensionOf), worked out once: histograms, ranks and outliers all ask. */
  readonly ext: string;
  /** ls -l's mode (`-rw-r--r--`), when the listing shows it. */
  readonly mode?: string;
}

function entryOf(
  dir: Dir,
  name: string,
  isDir: boolean,
  size: number | undefined,
  ext = extensionOf(name, isDir),
): Entry {
  return { dir, name, isDir, size, ext };
}

interface Parsed {
  readonly lines: readonly string[];
  readonly root: Dir;
  /** Per line: its entry, or null for framing (headers, totals, blanks, summaries). */
  readonly entries: readonly (Entry | null)[];
  readonly dirs: readonly Dir[];
  /** ls -a's `.` and `..` lines: each repeats an entry shown in the parent's listing. */
  readonly selfLines: ReadonlySet<number>;
  /** ls `total N` lines and `.`/`..` lines: they go when their directory folds. */
  readonly framing: ReadonlyMap<number, Dir>;
  /** Entry lines shown at every detail: a dependency tree's top level, the project's own dependencies. */
  readonly pinned: ReadonlySet<number>;
  /** The entries' extensions as numbers, so that the histogram of each marker of each try counts in an array. */
  readonly kinds: KindCounter;
}

// ls -l: mode, links, owner, group, size, date, name (owner/group may be dropped by -o/-g).
const MODE = '[-dlcbpsD?][rwxsStT-]{9}[.+@]?';
const DATE = String.raw`(?:[A-Z][a-z]{2}\s+\d{1,2}|\d{1,2}\s+[A-Z][a-z]{2})\s+(?:\d{4}|\d{1,2}:\d{2})|\d{4}-\d{2}-\d{2}(?:\s\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s[+-]\d{4})?)?`;
const LS_LONG = new RegExp(
  String.raw`^(${MODE})\s+\d+\s+(?:\S+\s+){0,2}?([\d.,]+[KMGTPE]?|\d+,\s*\d+)\s+(?:${DATE})\s(.+)$`,
);
const TOTAL = /^total \d[\d.,]*[KMGTPE]?$/;
/** An ls -l entry's first field, whatever its size and date fields look like (`--si`, another locale's months). */
const MODE_START = new RegExp(`^${MODE}\\s`);
/** Lines read to tell a long listing from a plain one. */
const SAMPLE_LINES = 200;
const TREE = /^((?:[│|]\s{2,3}|\s{4})*)(?:[├└|`][─-]{2}\s)(.*)$/;
const TREE_SUMMARY = /^\d+ director(?:y|ies)(?:, \d+ files?)?$/;
const DU = /^(\d[\d.,]*[KMGTPEkB]?)\t(.+)$/;
/** npm ls: `├─┬ name@1.2.3`, `│ └── name@1.0.0 deduped`, under a `project@1.0.0 /path` root. */
const NPM_TREE = /^(?:[│ ] )*[├└][─┬]{2} \S/;
/** An npm ls line: its indent (two columns a level), whether it opens dependencies of its own (`┬`), the package. */
const NPM_BRANCH = /^((?:[│ ] )*)[├└]─([┬─]) (.+)$/;
const NPM_ROOT = /^(?:@[\w.-]+\/)?[\w.-]+@\S+(?: \S+)?$/;
/** pip freeze: `name==1.2.3`, `name @ file:///…`, `-e git+…`. */
const REQUIREMENT = /^(?:[A-Za-z0-9][\w.-]*(?:\[[\w,.-]+\])?(?:===?|~=|>=) ?\S+|[A-Za-z0-9][\w.-]* @ \S+|-e \S+)$/;
const NOTE = /^\(.*\)$/;

function newDir(path: string, parent: Dir | null): Dir {
  const dir: Dir = { path, depth: parent ? parent.depth + 1 : 0, parent, header: -1, entries: [], children: [] };
  parent?.children.push(dir);
  return dir;
}

function bytes(size: string): number {
  const m = /^([\d.,]+)([KMGTPE]?)/i.exec(size);
  if (!m) return 0;
  const unit = ' KMGTPE'.indexOf(m[2]!.toUpperCase() || ' ');
  return Number(m[1]!.replaceAll(',', '')) * 1024 ** Math.max(0, unit);
}

class Tree {
  readonly root = newDir('', null);
  readonly dirs: Dir[] = [this.root];
  private readonly byPath = new Map<string, Dir>([['', this.root]]);
  /** Directories by the path as the listing wrote it (`./src/`), before normalising. */
  private readonly byRawPath = new Map<string, Dir>();

  /** The directory at a path, created with its ancestors. */
  dir(path: string): Dir {
    const known = this.byRawPath.get(path);
    if (known) return known;
    const dir = this.lookUp(path);
    this.byRawPath.set(path, dir);
    return dir;
  }

  /** A directory named by its parent and its own name, which may hold slashes (`@types/node@20.1.0`). */
  child(parent: Dir, name: string, header: number): Dir {
    const dir = newDir(parent.path === '' ? name : `${parent.path}/${name}`, parent);
    dir.header = header;
    this.dirs.push(dir);
    return dir;
  }

  /** Creates the missing ancestors in a loop, not by recursion: a path's depth is the input's to choose. */
  private lookUp(path: string): Dir {
    const missing: string[] = [];
    let key = pathKey(path);
    let dir = this.byPath.get(key);
    while (!dir) {
      missing.push(key);
      const cut = key.lastIndexOf('/');
      key = cut <= 0 ? '' : pathKey(key.slice(0, cut));
      dir = this.byPath.get(key);
    }
    for (let k = missing.length - 1; k >= 0; k--) {
      dir = newDir(missing[k]!, dir);
      this.byPath.set(missing[k]!, dir);
      this.dirs.push(dir);
    }
    return dir;
  }
}

/**
 * A directory's key: `./src/` and `src` are one directory (the root is ''); `.git` keeps its dot.
 * No regex: lookUp asks it for every ancestor, and a regex scan of the whole path each time made a
 * path of D levels cost D² inside one line, where the time budget is never asked.
 */
function pathKey(path: string): string {
  const end = withoutTrailingSlashes(path).length;
  // `./` goes when something follows it (not a line break, as the regex `(?=.)` this replaced said).
  const start = end > 2 && path.startsWith('./') && !LINE_BREAK.has(path.charCodeAt(2)) ? 2 : 0;
  const clean = path.slice(start, end);
  return clean === '.' ? '' : clean;
}

/** \n, \r, U+2028 and U+2029: what a regex `.` does not match. */
const LINE_BREAK: ReadonlySet<number> = new Set([0x0a, 0x0d, 0x2028, 0x2029]);

/** `path` without its trailing slashes, walking back from its end (a regex `/\/+$/` tries every slash). */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end--;
  return end === path.length ? path : path.slice(0, end);
}

const SLASH = 0x2f;

/** ls (-l, -R): entries under `dir:` headers, `total N` lines framing. */
function parseLs(
  lines: readonly string[],
  tree: Tree,
  selfLines: Set<number>,
  framing: Map<number, Dir>,
  tick: Tick,
): (Entry | null)[] {
  let dir = tree.root;
  // In a long listing every entry starts with its mode: a line that does not (and is no header or
  // total) is a message (`ls: cannot open directory …`, a note the runner appended), never an entry.
  const head = lines.slice(0, SAMPLE_LINES).filter((line) => line !== '' && !TOTAL.test(line));
  const longListing = head.filter((line) => MODE_START.test(line)).length >= head.length / 2;
  const entries = lines.map((line, i): Entry | null => {
    tick();
    if (line === '') return null;
    if (TOTAL.test(line)) {
      framing.set(i, dir);
      return null;
    }
    const previous = lines[i - 1];
    if (line.endsWith(':') && (i === 0 || previous === '') && !LS_LONG.test(line)) {
      dir = tree.dir(line.slice(0, -1));
      dir.header = i;
      return null;
    }
    if (longListing && !MODE_START.test(line)) return null;
    const long = LS_LONG.exec(line);
    const name = long ? long[3]!.replace(/ -> .*$/, '') : line;
    if (name === '.' || name === '..') {
      selfLines.add(i);
      framing.set(i, dir);
      return null;
    }
    // A directory's size in ls -l is its own metadata block, not its contents: not ranked.
    const isDir = long ? long[1]!.startsWith('d') : false;
    const plain = entryOf(dir, name, isDir, long && !isDir ? bytes(long[2]!) : undefined);
    const entry = long ? { ...plain, mode: long[1]! } : plain;
    dir.entries.push(i);
    return entry;
  });
  // Plain ls -R shows no modes: a name is a directory when its own `dir:` block follows.
  const headed = new Set(tree.dirs.filter((d) => d.header >= 0).map((d) => d.path));
  return entries.map((e) =>
    e && !e.isDir && headed.has(e.dir.path === '' ? e.name : `${e.dir.path}/${e.name}`)
      ? entryOf(e.dir, e.name, true, e.size)
      : e,
  );
}

/** find, fd, glob, du: one path per line (du with a size before a tab). */
function parsePaths(lines: readonly string[], tree: Tree, tick: Tick): (Entry | null)[] {
  const paths = lines.map((line) => {
    tick();
    const du = DU.exec(line);
    return du ? { path: du[2]!, size: bytes(du[1]!) } : { path: line, size: undefined };
  });
  const dirPaths = new Set<string>();
  for (const { path } of paths) {
    const norm = withoutTrailingSlashes(path);
    // Ancestors from the nearest up; one already known has its own ancestors known too.
    for (let cut = norm.lastIndexOf('/'); cut > 0; cut = norm.lastIndexOf('/', cut - 1)) {
      const ancestor = norm.slice(0, cut);
      if (dirPaths.has(ancestor)) break;
      dirPaths.add(ancestor);
    }
  }
  return paths.map(({ path, size }, i) => {
    tick();
    const line = lines[i]!;
    if (line.trim() === '' || (NOTE.test(line) && !line.includes('/'))) return null;
    const norm = withoutTrailingSlashes(path);
    const cut = norm.lastIndexOf('/');
    const dir = cut < 0 ? tree.root : tree.dir(norm.slice(0, cut) || '/');
    if (cut > 0) dir.label ??= norm.slice(0, cut);
    const isDir = dirPaths.has(norm) || path.endsWith('/');
    // A directory's own line (find, fd) heads its entries; du lines are sizes, ranked like entries.
    if (isDir) {
      const own = tree.dir(norm);
      if (size === undefined) own.header = i;
    }
    dir.entries.push(i);
    return entryOf(dir, norm.slice(cut + 1), isDir, size);
  });
}

/** tree: `├── name` lines nested by indentation under the root line, then `N directories, M files`. */
function parseTree(lines: readonly string[], tree: Tree, tick: Tick): (Entry | null)[] {
  const stack: string[] = [];
  return lines.map((line, i) => {
    tick();
    const m = TREE.exec(line);
    if (!m) return null;
    const depth = Math.round(m[1]!.length / 4);
    stack.length = depth;
    const name = m[2]!.replace(/ -> .*$/, '');
    const dir = tree.dir(stack.join('/'));
    const next = TREE.exec(lines[i + 1] ?? '');
    const isDir = next !== null && Math.round(next[1]!.length / 4) > depth;
    stack.push(name);
    if (isDir) tree.dir(stack.join('/')).header = i;
    dir.entries.push(i);
    return entryOf(dir, name, isDir, undefined);
  });
}

/** What an npm ls histogram counts a package as: deduped (shown whole elsewhere), unmet optional, or a package. */
function npmKind(name: string): string {
  if (name.endsWith(' deduped')) return 'deduped';
  return name.startsWith('UNMET OPTIONAL DEPENDENCY ') ? 'unmet optional' : 'packages';
}

/**
 * npm ls: each package under the one that opened it (`├─┬`), two columns a
 * level. A package with dependencies is a directory whose header is its own
 * line; the root line (`project@1.0.0 /path`) and npm's messages are framing.
 */
function parseNpmTree(lines: readonly string[], tree: Tree, pinned: Set<number>, tick: Tick): (Entry | null)[] {
  const open: Dir[] = [tree.root];
  return lines.map((line, i) => {
    tick();
    const m = NPM_BRANCH.exec(line);
    if (!m) return null;
    open.length = Math.max(1, Math.min(open.length, m[1]!.length / 2 + 1));
    const dir = open.at(-1)!;
    if (dir === tree.root) pinned.add(i);
    const name = m[3]!;
    const opens = m[2] === '┬';
    dir.entries.push(i);
    // Its directory is named by the package alone, not what npm says of it (`invalid: …`).
    if (opens) open.push(tree.child(dir, name.split(' ', 1)[0]!, i));
    return entryOf(dir, name, opens, undefined, opens ? 'packages' : npmKind(name));
  });
}

/** Parses the listing, asking `tick` for the time budget at every line. */
function parse(input: ProcessorInput, tick: Tick): Parsed {
  // The text's lines as the analysis slices them (they never end in a CR: a CR ends a line).
  const lines = textLines(input);
  const tree = new Tree();
  const selfLines = new Set<number>();
  const framing = new Map<number, Dir>();
  const pinned = new Set<number>();
  const sample = lines.slice(0, 400);
  const share = (re: RegExp) => sample.filter((l) => re.test(l)).length;
  const lsShaped = share(LS_LONG) + share(TOTAL) + sample.filter((l) => l.endsWith(':')).length;
  let entries: (Entry | null)[];
  // npm's tree draws `┬` where a package opens its own dependencies; tree(1) never does.
  const npm = NPM_ROOT.test(lines[0] ?? '') || sample.some((l) => l.includes('─┬ '));
  if (npm && share(NPM_TREE) > sample.length / 3) entries = parseNpmTree(lines, tree, pinned, tick);
  else if (share(TREE) > sample.length / 3) entries = parseTree(lines, tree, tick);
  else if (lsShaped > 0 && lsShaped >= sample.filter((l) => l.includes('/')).length)
    entries = parseLs(lines, tree, selfLines, framing, tick);
  else entries = parsePaths(lines, tree, tick);
  return {
    lines,
    root: tree.root,
    entries,
    dirs: tree.dirs,
    selfLines,
    framing,
    pinned,
    kinds: new KindCounter(entries),
  };
}

function extension(entry: Entry): string {
  return entry.ext;
}

/** What a histogram counts an entry as: its extension, or `dirs`, `dotfiles`, `no extension`. */
function extensionOf(name: string, isDir: boolean): string {
  if (isDir) return 'dirs';
  const m = /(\.d\.[cm]?ts|\.[^./\s]{1,12})$/.exec(name);
  if (!m || m.index === 0) return name.startsWith('.') ? 'dotfiles' : 'no extension';
  return m[1]!;
}

/** The histogram's plural labels said of one entry ("1 dir", not "1 dirs"). */
const SINGULAR: Readonly<Record<string, string>> = { dirs: 'dir', dotfiles: 'dotfile', packages: 'package' };

/**
 * Histograms of entries by extension (see extensionOf). Each extension is
 * numbered once per listing; a histogram counts its lines into one array and
 * clears only the slots it touched, so a budget search's tries, each writing
 * a marker per directory, cost the entries they count, not a map per marker.
 */
class KindCounter {
  /** Per line: its entry's extension number (-1 for framing). */
  private readonly kindOf: Int32Array;
  private readonly names: string[] = [];
  private readonly counts: Int32Array;

  constructor(entries: readonly (Entry | null)[]) {
    this.kindOf = new Int32Array(entries.length).fill(-1);
    const numbers = new Map<string, number>();
    entries.forEach((e, i) => {
      if (!e) return;
      let k = numbers.get(e.ext);
      if (k === undefined) {
        k = this.names.length;
        numbers.set(e.ext, k);
        this.names.push(e.ext);
      }
      this.kindOf[i] = k;
    });
    this.counts = new Int32Array(this.names.length);
  }

  /** For each of these lines, how many of them have its extension. */
  kindCounts(lines: readonly number[]): number[] {
    const { counts, kindOf } = this;
    for (const i of lines) counts[kindOf[i]!]!++;
    const of = lines.map((i) => counts[kindOf[i]!]!);
    for (const i of lines) counts[kindOf[i]!] = 0;
    return of;
  }

  /** `3 .ts, 1 dir`: the entries of these lines by extension, most first, past `limit` kinds one `N other`. */
  histogram(lines: readonly number[], limit: number): string {
    const { counts, kindOf, names } = this;
    const seen: number[] = [];
    for (const i of lines) {
      const k = kindOf[i]!;
      if (counts[k] === 0) seen.push(k);
      counts[k]!++;
    }
    const sorted = seen.map((k): [string, number] => [names[k]!, counts[k]!]);
    for (const k of seen) counts[k] = 0;
    sorted.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const shown = sorted.slice(0, limit).map(([ext, n]) => `${count(n)} ${n === 1 ? (SINGULAR[ext] ?? ext) : ext}`);
    const rest = sorted.slice(limit).reduce((a, [, n]) => a + n, 0);
    return rest > 0 ? `${shown.join(', ')}, ${count(rest)} other` : shown.join(', ');
  }
}

/** Most entries of a directory a mode or an empty size may have to stand out (`-rwxrwxrwx`, an empty file). */
const STANDOUT_ENTRIES = 2;

/**
 * A directory's files whose ls -l fields stand out among its files: a mode at
 * most two have (`-rwxrwxrwx` among `-rw-r--r--`; src/engine/fields.ts), a
 * lone empty file among written ones. (The largest files rank first anyway.)
 * Directories are left out: their size is their own metadata block.
 */
function standouts(parsed: Parsed, dir: Dir): number[] {
  const files = dir.entries.filter((i) => !parsed.entries[i]!.isDir && parsed.entries[i]!.mode !== undefined);
  if (files.length < MIN_ROWS) return [];
  const modes = rareCategories(new Column(files.map((i) => parsed.entries[i]!.mode)), STANDOUT_ENTRIES).map(
    (k) => files[k]!,
  );
  const empty = files.filter((i) => parsed.entries[i]!.size === 0);
  return empty.length <= STANDOUT_ENTRIES ? [...modes, ...empty] : modes;
}

/** A directory this big makes an entry of a kind it holds once stand out. */
const OUTLIER_DIR = 8;
/**
 * Most files alone of their kind in the whole listing it shows at every
 * detail, in number and as a share of its files: past either, a kind held
 * once is no longer what stands out (chosen, not fitted: 20 lines cost about
 * 500 tokens, and the everyday corpus' listings hold 2 to 8 in 520 to 660 files).
 */
const ALONE_MAX = 20;
const ALONE_SHARE = 0.05;
/** Subtrees of at most this many entries never fold on their own (a marker costs as much). */
const SMALL_SUBTREE = 3;

/** Share of a listing's tokens it may keep when over budget (never more than the budget). */
const LISTING_SHARE = 0.1;
/** Share of the budget a listing may always use: below it a mid-sized listing would lose its rare names. */
const MIN_RATION = 0.5;
/** Cheaper renderings, in the order tried once the level's own is over the ration. */
const SHRINK: readonly Pick<Detail, 'perDir' | 'small' | 'merge' | 'names' | 'outliers'>[] = [
  { perDir: 2, small: 6 },
  { perDir: 1, small: 6 },
  { perDir: 1, small: 3 },
  { perDir: 0, small: 3 },
  { perDir: 0, small: 1 },
  { perDir: 0, small: 0 },
  // Neighbouring markers merged, naming every directory with its count.
  { perDir: 1, small: 3, merge: true, names: Infinity },
  { perDir: 0, small: 1, merge: true, names: Infinity, outliers: true },
  { perDir: 0, small: 1, merge: true, names: Infinity },
  { perDir: 0, small: 0, merge: true, names: Infinity },
];

/** How much a rendering shows. */
interface Detail {
  /** Entries shown per big directory (its rarest and largest first). */
  readonly perDir: number;
  /** Directories of at most this many entries show whole. */
  readonly small: number;
  /** How many directories of the fold order are folded, each into one marker for its whole subtree. */
  readonly folded: number;
  /** Extensions named per histogram. */
  readonly kinds: number;
  /** Markers with no shown line between them merge into one. */
  readonly merge?: boolean;
  /** How many directories a merged marker names, each with its count (default: `kinds`). */
  readonly names?: number;
  /** Entries alone of their kind in a big directory show whatever `perDir` says (schema.graphql among 300 .ts). */
  readonly outliers?: boolean;
  /** Pinned lines (a dependency tree's top level) count like any other: the last resort before one marker. */
  readonly unpinned?: boolean;
  /** The detail of the directories holding the listing, when richer. */
  readonly top?: Pick<Detail, 'perDir' | 'small'>;
  /** A richer detail for the first `dirs` directories of the fill order (smallest first). */
  readonly richer?: { readonly detail: Pick<Detail, 'perDir' | 'small' | 'outliers'>; readonly dirs: number };
}

class ListingView {
  /** Each directory's entry lines in the order they earn a place (rarest and largest first). */
  private readonly ranked = new Map<Dir, number[]>();
  /** Directories in the order they fold (see planFolds). */
  private readonly foldRank = new Map<Dir, number>();
  private readonly subtree = new Map<Dir, number>();
  /** Per line, 1 where it shows at every detail. */
  private readonly forced: Uint8Array;
  readonly maxEntries: number;
  foldable = 0;

  /**
   * The directories holding the whole listing (`typescript:` over everything,
   * find's `node_modules` line): they never fold, and keep the level's own
   * detail whatever the budget (what sits at the top is what one asked about).
   */
  private readonly top = new Set<Dir>();
  /** Per line, 1 for an entry alone of its kind in a directory of at least OUTLIER_DIR entries. */
  private readonly outliers: Uint8Array;
  /** Each directory's place in the order it gets a richer detail when room is left: smallest, then shallowest, first. */
  private readonly fillRank = new Map<Dir, number>();

  /** Each directory's own line in its parent's listing, when the listing has one. */
  private readonly lineOf = new Map<Dir, number>();

  constructor(
    private readonly parsed: Parsed,
    input: ProcessorInput,
    private readonly tick: Tick,
  ) {
    // Preserved lines show, and so do the problems a dependency tree flags (`invalid:`, `UNMET DEPENDENCY`)
    // and entries that stand out: a number far outside what same-shape lines hold, a mode or size few
    // entries of their directory have (standouts).
    const { reasons } = input.analysis.anomalies;
    const preserved = linesHolding(input, parsed.lines, input.preserve);
    this.forced = problemLines(input, parsed.lines);
    this.outliers = new Uint8Array(parsed.lines.length);
    for (let i = 0; i < parsed.lines.length; i++) {
      tick();
      if (!parsed.entries[i]) this.forced[i] = 0;
      else if ((reasons[i]! & Anomaly.Outlier) !== 0 || preserved[i]) this.forced[i] = 1;
    }
    for (const dir of parsed.dirs) {
      tick();
      for (const i of standouts(parsed, dir)) this.forced[i] = 1;
      this.ranked.set(dir, this.rank(dir));
    }
    this.maxEntries = parsed.dirs.reduce((a, d) => Math.max(a, d.entries.length), 0);
    // Subtree sizes children first (a directory is listed after its parent): a loop, as the depth is the input's.
    for (let k = parsed.dirs.length - 1; k >= 0; k--) {
      const dir = parsed.dirs[k]!;
      const n = (this.subtree.get(dir) ?? 0) + dir.entries.length;
      this.subtree.set(dir, n);
      if (dir.parent) this.subtree.set(dir.parent, (this.subtree.get(dir.parent) ?? 0) + n);
    }
    // Each directory's entry line by name, the first of that name: one pass, not a search per subdirectory.
    const dirEntry = new Map<Dir, Map<string, number>>();
    for (const dir of parsed.dirs) {
      tick();
      const byName = new Map<string, number>();
      for (const i of dir.entries) {
        const entry = parsed.entries[i]!;
        if (entry.isDir && !byName.has(entry.name)) byName.set(entry.name, i);
      }
      dirEntry.set(dir, byName);
    }
    for (const dir of parsed.dirs) {
      if (!dir.parent) continue;
      const name = dir.path.slice(dir.path.lastIndexOf('/') + 1);
      const own = dir.header >= 0 && parsed.entries[dir.header] ? dir.header : dirEntry.get(dir.parent)!.get(name);
      if (own !== undefined) this.lineOf.set(dir, own);
    }
    for (const dir of parsed.dirs) {
      tick();
      if (dir.entries.length < OUTLIER_DIR) continue;
      const kinds = new Map<string, number>();
      for (const i of dir.entries)
        kinds.set(extension(parsed.entries[i]!), (kinds.get(extension(parsed.entries[i]!)) ?? 0) + 1);
      for (const i of dir.entries)
        if (!parsed.entries[i]!.isDir && kinds.get(extension(parsed.entries[i]!)) === 1) this.outliers[i] = 1;
    }
    // A file of a kind the whole listing holds once (the one .h, the one .bnf) shows at every detail, while
    // such files are few: a listing whose every file has its own kind (rotated logs: `.1`, `.2`…) has none.
    const files = parsed.entries.flatMap((e, i) => (e && !e.isDir ? [i] : []));
    const kindCount = parsed.kinds.kindCounts(files);
    const alone = files.filter((_, k) => kindCount[k] === 1);
    if (files.length >= OUTLIER_DIR && alone.length <= Math.min(ALONE_MAX, files.length * ALONE_SHARE))
      for (const i of alone) this.forced[i] = 1;
    [...parsed.dirs]
      .sort((a, b) => a.entries.length - b.entries.length || a.depth - b.depth)
      .forEach((dir, k) => {
        this.fillRank.set(dir, k);
      });
    const holdsAll = (d: Dir) =>
      d.children.length === 1 && d.entries.every((i) => i === this.lineOf.get(d.children[0]!));
    let d: Dir | undefined = parsed.root;
    for (; d && holdsAll(d); d = d.children[0]) this.top.add(d);
    if (d) this.top.add(d);
  }

  /** Whether line i shows at `detail` whatever its directory's share: forced, or pinned while pins hold. */
  private shows(i: number, detail: Detail): boolean {
    return this.forced[i] === 1 || (!detail.unpinned && this.parsed.pinned.has(i));
  }

  /**
   * Orders the folds: the directories whose subtrees cost the most lines at
   * `detail` fold first (a parent folds before its children, which it holds).
   * A subtree of a few entries costs less shown than folded, and never folds alone.
   */
  planFolds(detail: Detail): void {
    const { show } = this.visibility({ ...detail, folded: 0 });
    const cost = new Map<Dir, number>();
    const add = (dir: Dir, i: number) => {
      if (show[i]) cost.set(dir, (cost.get(dir) ?? 0) + this.parsed.lines[i]!.length + 1);
    };
    this.parsed.entries.forEach((e, i) => {
      if (e) add(e.dir, i);
    });
    for (const dir of this.parsed.dirs) if (dir.header >= 0 && !this.parsed.entries[dir.header]) add(dir, dir.header);
    for (const [i, dir] of this.parsed.framing) add(dir, i);
    // Subtree costs children first, in a loop (see the constructor).
    const { dirs } = this.parsed;
    for (let k = dirs.length - 1; k >= 0; k--) {
      const dir = dirs[k]!;
      cost.set(dir, cost.get(dir) ?? 0);
      if (dir.parent) cost.set(dir.parent, (cost.get(dir.parent) ?? 0) + cost.get(dir)!);
    }
    const order = this.parsed.dirs.filter((d) => !this.top.has(d) && this.subtree.get(d)! > SMALL_SUBTREE);
    order.sort((a, b) => cost.get(b)! - cost.get(a)! || a.depth - b.depth);
    this.foldRank.clear();
    order.forEach((d, k) => {
      this.foldRank.set(d, k);
    });
    this.foldable = order.length;
  }

  /** Whether the directory has a header line of its own (`./src:`), not an entry line of its parent. */
  standsAlone(dir: Dir): boolean {
    return dir.header >= 0 && !this.parsed.entries[dir.header];
  }

  /** Alternates the rarest extension's entries and the largest entries. */
  private rank(dir: Dir): number[] {
    const { entries } = dir;
    const n = entries.length;
    // Sorted by their places in the directory (j for entries[j]): typed arrays, no map per directory.
    // Ties go in an order that samples the directory evenly, not to its first entries.
    const place = new Int32Array(n);
    spreadOrder(Array.from(entries.keys())).forEach((j, k) => {
      place[j] = k;
    });
    // The sort keys read once per entry, not twice per comparison (a directory can hold 100k entries).
    const kindCount = this.parsed.kinds.kindCounts(entries);
    const rare = Array.from(entries.keys()).sort((a, b) => kindCount[a]! - kindCount[b]! || place[a]! - place[b]!);
    const sized = entries.some((i) => this.parsed.entries[i]!.size !== undefined);
    const size = sized ? entries.map((i) => this.parsed.entries[i]!.size ?? 0) : [];
    const large = sized ? Array.from(entries.keys()).sort((a, b) => size[b]! - size[a]! || place[a]! - place[b]!) : [];
    const order: number[] = [];
    const taken = new Uint8Array(n);
    for (let k = 0; order.length < n; k++) {
      for (const list of [rare, large]) {
        const j = list[k];
        if (j !== undefined && !taken[j]) {
          taken[j] = 1;
          order.push(entries[j]!);
        }
      }
    }
    return order;
  }

  /**
   * For each directory, the one whose marker accounts for it (the outermost
   * fold holding it), or null when it shows: one pass, parents first (the
   * tree lists a directory after its parent).
   */
  private foldedInto(folded: number): Map<Dir, Dir | null> {
    const into = new Map<Dir, Dir | null>();
    for (const d of this.parsed.dirs) {
      const above = d.parent ? into.get(d.parent)! : null;
      into.set(d, above ?? ((this.foldRank.get(d) ?? Infinity) < folded ? d : null));
    }
    return into;
  }

  /** Which lines show at `detail`, and the hidden entry lines each marker accounts for. */
  private visibility(detail: Detail): {
    show: Uint8Array;
    hidden: Map<Dir, number[]>;
    foldedDirs: Map<Dir, number>;
    foldedEntries: Map<Dir, number>;
    everything: boolean;
  } {
    const { lines, entries, dirs } = this.parsed;
    const show = new Uint8Array(lines.length);
    const hidden = new Map<Dir, number[]>();
    const foldedDirs = new Map<Dir, number>();
    const foldedEntries = new Map<Dir, number>();
    for (let i = 0; i < lines.length; i++) if (!entries[i]) show[i] = 1;
    const everything = detail.perDir === Infinity && detail.folded === 0;
    if (!everything) for (const i of this.parsed.selfLines) show[i] = 0;
    const into = this.foldedInto(detail.folded);
    // Headers of unfolded directories stay (for tree and find they are also their parent's entries).
    const headers = new Uint8Array(lines.length);
    for (const dir of dirs) {
      if (dir.header < 0) continue;
      // Merging, a directory's own line in its parent's listing (find) is counted like any entry.
      if (into.get(dir) === null && !(detail.merge && !this.standsAlone(dir))) headers[dir.header] = 1;
      else if (!this.shows(dir.header, detail)) show[dir.header] = 0;
    }
    for (let i = 0; i < lines.length; i++) if (headers[i]) show[i] = 1;
    for (const [i, dir] of this.parsed.framing) if (into.get(dir) !== null) show[i] = 0;
    for (const dir of dirs) {
      const folded = into.get(dir) ?? null;
      const owner = folded ?? dir;
      if (folded && folded !== dir) {
        foldedDirs.set(folded, (foldedDirs.get(folded) ?? 0) + 1);
        foldedEntries.set(folded, (foldedEntries.get(folded) ?? 0) + dir.entries.length);
      }
      // A directory a marker would not shorten shows whole (merged markers cost less).
      const richer = detail.richer && this.fillRank.get(dir)! < detail.richer.dirs ? detail.richer.detail : undefined;
      const own = this.top.has(dir) ? { ...detail, ...detail.top } : richer ? { ...detail, ...richer } : detail;
      const whole = own.merge ? own.small : Math.max(own.small, own.perDir + 2);
      const keep = folded ? 0 : dir.entries.length <= whole ? Infinity : own.perDir;
      let list = hidden.get(owner);
      let shown = 0;
      for (const i of this.ranked.get(dir)!) {
        this.tick();
        if (headers[i]) continue;
        if (shown < keep || this.shows(i, detail) || (own.outliers && this.outliers[i] === 1)) {
          show[i] = 1;
          shown++;
        } else {
          if (!list) hidden.set(owner, (list = []));
          list.push(i);
        }
      }
      // Merging, an `ls -R` header over nothing shown goes: the merged marker names it.
      if (
        detail.merge &&
        !folded &&
        shown === 0 &&
        list?.length &&
        this.standsAlone(dir) &&
        !this.shows(dir.header, detail)
      )
        show[dir.header] = 0;
    }
    // A `total N` line goes with its directory's header.
    for (const [i, dir] of this.parsed.framing) if (dir.header >= 0 && !show[dir.header]) show[i] = 0;
    return { show, hidden, foldedDirs, foldedEntries, everything };
  }

  render(detail: Detail): ProcessorOutput {
    const { lines, kinds } = this.parsed;
    const { show, hidden, foldedDirs, foldedEntries, everything } = this.visibility(detail);
    // Markers go after the last line their directory accounts for, deepest first.
    const markers = new Map<number, { dir: Dir; marker: (where: string) => Marker }[]>();
    const placedAt = new Map<number, typeof placed>();
    const placed = [...hidden].map(([dir, list]) => ({
      dir,
      list,
      first: list.reduce((a, b) => Math.min(a, b)),
      last: list.reduce((a, b) => Math.max(a, b), dir.header),
    }));
    placed.sort((a, b) => a.last - b.last || b.dir.depth - a.dir.depth);
    let omittedEntries = 0;
    for (const { dir, list, first, last } of placed) {
      omittedEntries += list.length;
      const subdirs = foldedDirs.get(dir);
      const total = dir.entries.length + (foldedEntries.get(dir) ?? 0);
      const where = dir.path === '' ? '' : ` in ${dir.path}/`;
      const sub = subdirs ? ` and ${plural(subdirs, 'subdirectory', 'subdirectories')}` : '';
      const what =
        list.length === total ? plural(total, 'entry', 'entries') : `${count(list.length)} of ${count(total)} entries`;
      // Merged runs write their own histograms: a directory's marker counts its entries only when written.
      const marker = (at: string): Marker => ({
        list: [...list],
        detail: `${what}${at}${sub}: ${kinds.histogram(list, detail.kinds)}`,
      });
      const here = markers.get(last);
      const entry = { dir, marker: (at: string) => marker(at === '' ? where : '') };
      if (here) here.push(entry);
      else markers.set(last, [entry]);
      const placedHere = placedAt.get(last);
      if (placedHere) placedHere.push({ dir, list, first, last });
      else placedAt.set(last, [{ dir, list, first, last }]);
    }
    const out: (string | Marker)[] = [];
    /** The original line each shown line of `out` is (-1 for markers). */
    const from: number[] = [];
    let run: { dirs: Dir[]; counts: number[]; list: number[]; first: number; last: number } | null = null;
    const closeRun = () => {
      if (!run) return;
      const { counts } = run;
      // A directory is named as its header reads (`./src:`) when it has one, so it can be found in the original.
      const names = run.dirs.map((d, k) => {
        const own = this.standsAlone(d);
        const name = own ? lines[d.header]! : d.path === '' ? '.' : `${d.label ?? d.path}/`;
        return counts.length > 1 || own ? `${name} ${count(counts[k]!)}` : name;
      });
      const limit = detail.names ?? detail.kinds;
      const shown =
        names.length <= limit
          ? names.join(', ')
          : `${names.slice(0, limit).join(', ')}, +${count(names.length - limit)} more`;
      out.push({
        list: [...run.list],
        detail: `${plural(run.list.length, 'entry', 'entries')} in ${shown}; ${kinds.histogram(run.list, detail.kinds)}`,
      });
      from.push(-1);
      run = null;
    };
    for (let i = 0; i < lines.length; i++) {
      this.tick();
      // Blank lines separate shown blocks: never two, never after a marker.
      if (
        show[i] &&
        !(
          lines[i] === '' &&
          (out.length === 0 || out[out.length - 1] === '' || typeof out[out.length - 1] !== 'string')
        )
      ) {
        if (lines[i] !== '') closeRun();
        out.push(lines[i]!);
        from.push(i);
      }
      // Right under its directory's header a marker need not name the directory again.
      if (!detail.merge) {
        for (const m of markers.get(i) ?? []) {
          out.push(m.marker(m.dir.header >= 0 && out[out.length - 1] === lines[m.dir.header] ? 'header' : ''));
          from.push(-1);
        }
      } else
        for (const p of placedAt.get(i) ?? []) {
          run ??= { dirs: [], counts: [], list: [], first: p.first, last: p.last };
          run.dirs.push(p.dir);
          run.counts.push(p.list.length);
          for (const i of p.list) run.list.push(i);
          run.first = Math.min(run.first, p.first);
          run.last = Math.max(run.last, p.last);
        }
    }
    closeRun();
    // A blank line left ending the output goes, but not the blank lines that end the listing itself
    // (npm ls ends with one): a marker naming them would cost more than they do.
    let lastWritten = lines.length - 1;
    while (lastWritten >= 0 && lines[lastWritten] === '') lastWritten--;
    while (out.length > 0 && out[out.length - 1] === '' && from[from.length - 1]! <= lastWritten) {
      out.pop();
      from.pop();
    }
    const omitted: Omitted = {};
    if (omittedEntries) omitted['entries (counted per directory)'] = omittedEntries;
    if (!everything && this.parsed.selfLines.size) omitted['. and .. entries'] = this.parsed.selfLines.size;
    return { ...nameFraming(out, from, lines.length), omitted };
  }
}

/** A marker of `out` before it is written: the original lines it names (0-based) and what they are. */
interface Marker {
  readonly list: number[];
  readonly detail: string;
}

/**
 * The output with every marker naming its lines, and the framing lines that
 * went without an entry of their own (blank lines, `total N`, headers over
 * nothing shown, `.` and `..`) named by the marker nearest where they stood
 * (a new marker when there is none): every original line is shown or named.
 */
function nameFraming(
  out: readonly (string | Marker)[],
  from: readonly number[],
  lineCount: number,
): { text: string; omissions: PlacedOmission[] } {
  // Each line's marker (its position in `out`), -1 when none names it: the lists are then
  // gathered in line order in one pass, not each sorted.
  const owner = new Int32Array(lineCount).fill(-1);
  const named = new Uint8Array(lineCount);
  for (const i of from) if (i >= 0) named[i] = 1;
  out.forEach((item, j) => {
    if (typeof item !== 'string')
      for (const i of item.list) {
        named[i] = 1;
        owner[i] = j;
      }
  });
  const extra = new Map<number, number[]>(); // output position -> lines of a new marker there
  let k = 0; // output position of the first shown line after line i
  for (let i = 0; i < lineCount; i++) {
    while (k < from.length && (from[k]! < 0 || from[k]! < i)) k++;
    if (named[i]) continue;
    // Line i stood in the gap before output position k (the next shown line): its last marker names it.
    if (k > 0 && from[k - 1]! < 0 && typeof out[k - 1] !== 'string') owner[i] = k - 1;
    else {
      const here = extra.get(k);
      if (here) here.push(i);
      else extra.set(k, [i]);
    }
  }
  const lists = new Map<number, number[]>();
  for (let i = 0; i < lineCount; i++) {
    const j = owner[i]!;
    if (j < 0) continue;
    const list = lists.get(j);
    if (list) list.push(i);
    else lists.set(j, [i]);
  }
  // The original line each output position sits before (the next shown line's), for the markers' places.
  const before = new Int32Array(out.length + 1).fill(lineCount);
  for (let j = out.length - 1; j >= 0; j--) before[j] = from[j]! >= 0 ? from[j]! : before[j + 1]!;
  const text: string[] = [];
  const omissions: PlacedOmission[] = [];
  const place = (lines: readonly number[], detail: string, at: number) => {
    text.push(omittedLineList(lines, detail));
    for (const omission of lineListOmissions(lines, at)) omissions.push(omission);
  };
  for (let j = 0; j <= out.length; j++) {
    const lines = extra.get(j);
    if (lines) place(lines, '', before[j]!);
    const item = out[j];
    if (item === undefined) continue;
    if (typeof item === 'string') text.push(item);
    else place(lists.get(j) ?? [], item.detail, before[j]!);
  }
  return { text: text.join('\n'), omissions };
}

/** Listings past this many lines are searched coarsely: every try renders the whole listing. */
const SEARCHED_LINES = 20_000;

function process(input: ProcessorInput): ProcessorOutput {
  const tick = deadlineTick('listing', input.expired);
  checkDeadline('listing', input.expired);
  const parsed = parse(input, tick);
  checkDeadline('listing', input.expired);
  const total = parsed.entries.filter(Boolean).length;
  if (total === 0) throw new ProcessorError('listing', 'no entries in the listing');
  const target = targetOf(input);
  const estimate = estimateFor(input);
  if (input.level === 'lossless' && estimate(input.text) <= target)
    return { text: input.text, omitted: {}, omissions: [] };
  const view = new ListingView(parsed, input, tick);
  checkDeadline('listing', input.expired);
  const render = renderOnce((d: Detail) => view.render(d));
  // A listing over its budget is mostly repetition: its structure, small
  // directories and rare names fit in a fraction of it, so it gets that
  // fraction even when the budget would allow more.
  const tokensIn = estimate(input.text);
  const ration =
    tokensIn <= target
      ? target
      : Math.min(target, Math.max(Math.ceil(tokensIn * LISTING_SHARE), Math.ceil(target * MIN_RATION)));
  // Each try renders the whole listing: the time budget is checked before each.
  const fits = (d: Detail) => {
    checkDeadline('listing', input.expired);
    return estimate(render(d).text) <= ration;
  };
  // Light keeps a few names of each big directory, aggressive fewer. When
  // that is over the ration, the names per directory shrink first, then
  // small directories are counted instead of listed: every directory header
  // stays. Only then do subtrees fold (the costliest first).
  const natural: Detail = {
    perDir: input.level === 'lossless' ? Infinity : input.level === 'light' ? 5 : 2,
    small: input.level === 'aggressive' ? 6 : 12,
    folded: 0,
    kinds: 6,
  };
  const steps: Detail[] = [
    natural,
    ...SHRINK.filter((d) => d.perDir < natural.perDir && d.small <= natural.small).map((d) => ({
      ...natural,
      ...d,
      top: natural,
    })),
  ];
  // Each try renders the whole listing: a huge one skips the gentler steps and
  // searches its folds coarsely (a few renderings instead of dozens).
  const huge = parsed.lines.length > SEARCHED_LINES;
  const found = huge ? -1 : steps.findIndex(fits);
  let detail = found < 0 ? undefined : steps[found];
  if (detail && found === 0 && input.level !== 'lossless' && tokensIn > target && !huge) {
    // Room left under the ration goes to more names of each big directory, sampled evenly across it
    // (at aggressive too: its ration is smaller, and a `ls -l` of 1,130 entries kept 11 names in 482 tokens of 1,500).
    const base = detail;
    let widest = 0;
    for (const dir of parsed.dirs) widest = Math.max(widest, dir.entries.length);
    const perDir = largestFitting(base.perDir, widest, (k) => fits({ ...base, perDir: k }));
    detail = { ...base, perDir };
  }
  if (detail && found > 0) {
    // Room left under the ration goes to the previous step's detail, for the smallest directories first.
    const base = detail;
    const richer = { detail: steps[found - 1]!, dirs: 0 };
    const dirs = largestFitting(0, parsed.dirs.length, (k) => fits({ ...base, richer: { ...richer, dirs: k } }));
    if (dirs > 0) detail = { ...base, richer: { ...richer, dirs } };
  }
  if (!detail) {
    const last = steps[steps.length - 1]!;
    view.planFolds(last);
    checkDeadline('listing', input.expired);
    render.clear();
    // The fewest folds that fit: the most unfolded directories still fitting.
    const resolution = huge ? Math.ceil(view.foldable / 16) : 1;
    const unfolded = largestFitting(0, view.foldable, (k) => fits({ ...last, folded: view.foldable - k }), resolution);
    detail = { ...last, folded: view.foldable - unfolded };
    if (!fits(detail)) detail = { ...last, small: 0, folded: view.foldable, kinds: 2, names: 2 };
  }
  let { text, omitted, omissions } = render(detail);
  text = keepPreserved(text, input.text, input.preserve);
  if (estimate(text) > input.maxTokens) ({ text, omitted, omissions } = render({ ...detail, merge: true }));
  if (estimate(text) > input.maxTokens && parsed.pinned.size > 0) {
    view.planFolds({ ...detail, unpinned: true });
    ({ text, omitted, omissions } = render({ ...detail, merge: true, unpinned: true, folded: view.foldable }));
  }
  if (estimate(text) > input.maxTokens) {
    const kinds = parsed.kinds.histogram(
      parsed.entries.flatMap((e, i) => (e ? [i] : [])),
      4,
    );
    text = omittedLines(
      0,
      parsed.lines.length,
      `${plural(total, 'entry', 'entries')} in ${plural(parsed.dirs.length, 'directory', 'directories')}: ${kinds}`,
    );
    omitted = { 'entries (counted)': total };
    omissions = [linesOmission(0, parsed.lines.length)];
  }
  if (estimate(text) >= estimate(input.text)) return { text: input.text, omitted: {}, omissions: [] };
  return { text, omitted, omissions };
}

/**
 * Share of the first 200 non-empty lines shaped like a listing: ls -l rows,
 * `total N`, `dir:` headers, tree rows, du rows, or paths without spaces that
 * name a directory or a file with an extension.
 */
function sniff(analysis: TextAnalysis): number {
  const lines = nonBlankHead(analysis, 400, 200).map((i) => analysis.headLine(i));
  if (lines.length === 0) return 0;
  const path = /^(?:\.{0,2}\/|~\/)?[^\s:*?"<>|]+$/;
  const header = (l: string) => l.endsWith(':') && !l.includes(' ');
  // Under `dir:` headers (ls -R, ls of several folders) a bare name is an entry.
  const sectioned = lines.some(header);
  const listed = lines.filter(
    (l, i) =>
      LS_LONG.test(l) ||
      TOTAL.test(l) ||
      TREE.test(l) ||
      DU.test(l) ||
      TREE_SUMMARY.test(l) ||
      NPM_TREE.test(l) ||
      REQUIREMENT.test(l) ||
      (i === 0 && (l === '.' || path.test(l) || NPM_ROOT.test(l))) ||
      header(l) ||
      (path.test(l) && (sectioned || l.includes('/') || /\.\w{1,8}$/.test(l))),
  ).length;
  return listed / lines.length;
}

export const listingProcessor: Processor = {
  kind: 'listing',
  lineShaped: true,
  foldsShapes: 'exact',
  pathLines: 'whole',
  fallback: 'log',
  tools: { glob: 'paths', list: 'paths' },
  commands: [
    'ls',
    'find',
    'fd',
    'fdfind',
    'du',
    'tree',
    'npm ls',
    'pnpm ls',
    'yarn list',
    'pip freeze',
    'pip3 freeze',
    'git ls-files',
  ],
  sniff,
  process,
  skeleton: listingSkeleton,
};
