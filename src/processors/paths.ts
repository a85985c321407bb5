// The paths processor: find / ls -R / glob output folded into an indented tree
// (common prefixes once, file counts per directory). Light and aggressive
// collapse the biggest directories to exact counts with an extension breakdown,
// e.g. `gen/ (1,204 files: 1,180 .ts, 24 .json)`, until the budget fits.
import type { Processor, ProcessorInput, ProcessorOutput } from '../types.js';
import { ProcessorError } from './errors.js';
import { count, plural } from './markers.js';
import { keepPreserved } from './preserve.js';

interface Dir {
  children: Map<string, Dir>;
  files: number;
  collapsed: boolean;
}

// Listings rarely have spaces in names; sentences and log lines always do.
const PATHLIKE = /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)?[^\s:*?"<>|]+$/;

function newDir(): Dir {
  return { children: new Map(), files: 0, collapsed: false };
}

/**
 * Every file is this one node: a listing of 400,000 paths would otherwise
 * hold 400,000 objects and maps (18x its size in memory, seconds of work).
 * It is never mutated but for `files`, which is 1 for every file anyway.
 */
const FILE: Dir = { children: new Map(), files: 1, collapsed: false };

/** Paths of the listing: find/glob lines, or ls -R `dir:` headers with their entries. */
function listPaths(text: string): string[] {
  const paths: string[] = [];
  let base = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.endsWith(':') && !line.includes(' ')) {
      base = line.slice(0, -1).replace(/\/$/, '');
      continue;
    }
    paths.push(base ? `${base}/${line}` : line);
  }
  return paths.map((p) => p.replace(/^\.\//, '')).filter((p) => p !== '.' && p !== '');
}

function build(paths: string[]): Dir {
  const root = newDir();
  for (const path of paths) {
    let dir = root;
    const parts = path.split('/').filter(Boolean);
    if (path.startsWith('/') && parts.length > 0) parts[0] = `/${parts[0]}`; // absolute paths keep their root
    parts.forEach((part, i) => {
      let next = dir.children.get(part);
      if (i === parts.length - 1) {
        if (!next) dir.children.set(part, FILE);
        return;
      }
      // A name listed as a file and later as a directory (find lists both) becomes a directory.
      if (!next || next === FILE) dir.children.set(part, (next = newDir()));
      dir = next;
    });
  }
  const countFiles = (d: Dir): number => {
    d.files = d.children.size === 0 ? 1 : [...d.children.values()].reduce((a, c) => a + countFiles(c), 0);
    return d.files;
  };
  for (const child of root.children.values()) countFiles(child);
  return root;
}

function extensions(d: Dir, into: Map<string, number>): void {
  for (const [name, c] of d.children) {
    if (c.children.size > 0) extensions(c, into);
    else {
      const ext = /(\.[^./]+)$/.exec(name)?.[1] ?? '(no extension)';
      into.set(ext, (into.get(ext) ?? 0) + 1);
    }
  }
}

function collapsedLine(label: string, node: Dir): string {
  const exts = new Map<string, number>();
  extensions(node, exts);
  const parts = [...exts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([e, n]) => `${count(n)} ${e}`);
  return `${label}/ (${plural(node.files, 'file')}: ${parts.join(', ')})`;
}

/** Lines of a directory's children, single-directory chains folded (a/b/c/). */
function renderLines(d: Dir, indent: string, lines: string[]): string[] {
  for (const [name, child] of d.children) {
    let label = name;
    let node = child;
    while (node.children.size === 1 && !node.collapsed) {
      const [n, c] = node.children.entries().next().value!;
      if (c.children.size === 0) break;
      label += `/${n}`;
      node = c;
    }
    if (node.children.size === 0) lines.push(`${indent}${label}`);
    else if (node.collapsed) lines.push(`${indent}${collapsedLine(label, node)}`);
    else {
      lines.push(`${indent}${label}/ (${plural(node.files, 'file')})`);
      renderLines(node, `${indent}  `, lines);
    }
  }
  return lines;
}

function render(root: Dir): string {
  return renderLines(root, '', []).join('\n');
}

/** Characters a directory's expanded subtree takes (its own line excluded), at `depth`. */
function subtreeChars(d: Dir, depth: number): number {
  return renderLines(d, '  '.repeat(depth + 1), []).reduce((a, l) => a + l.length + 1, 0);
}

interface Candidate {
  dir: Dir;
  depth: number;
  direct: number;
  ancestors: Dir[];
}

/**
 * Collapses directories until the estimate fits: those holding the most files
 * directly first (the long runs of names), deeper before shallower.
 */
function collapseToFit(root: Dir, chars: number, targetChars: number): void {
  const candidates: Candidate[] = [];
  const gather = (d: Dir, depth: number, ancestors: Dir[]) => {
    for (const c of d.children.values()) {
      if (c.children.size === 0) continue;
      const direct = [...c.children.values()].filter((x) => x.children.size === 0).length;
      if (c.files >= 2) candidates.push({ dir: c, depth, direct, ancestors });
      gather(c, depth + 1, [...ancestors, c]);
    }
  };
  gather(root, 0, []);
  candidates.sort((a, b) => b.direct - a.direct || b.depth - a.depth || b.dir.files - a.dir.files);
  for (const { dir, depth, ancestors } of candidates) {
    if (chars <= targetChars) break;
    if (ancestors.some((a) => a.collapsed)) continue;
    const saved = subtreeChars(dir, depth) - collapsedLine('', dir).length + `/ (${plural(dir.files, 'file')})`.length;
    dir.collapsed = true;
    chars -= saved;
  }
}

function process(input: ProcessorInput): ProcessorOutput {
  const paths = listPaths(input.text);
  if (paths.length === 0) throw new ProcessorError('paths', 'no paths in the listing');
  const root = build(paths);
  const estimate = (s: string) => input.estimator.estimate(s);
  let text = render(root);
  let collapsedFiles = 0;
  if (input.level !== 'lossless') {
    const target = input.level === 'aggressive' ? Math.floor(input.budget / 2) : input.budget;
    const tokens = estimate(text);
    if (tokens > target) {
      collapseToFit(root, text.length, (target / tokens) * text.length);
      text = render(root);
      const gather = (d: Dir): number => [...d.children.values()].reduce((a, c) => a + (c.collapsed ? c.files : gather(c)), 0);
      collapsedFiles = gather(root);
    }
  }
  text = keepPreserved(text, input.text, input.preserve);
  if (estimate(text) >= estimate(input.text)) return { text: input.text, omitted: {} };
  return { text, omitted: collapsedFiles ? { 'file names (counted per directory)': collapsedFiles } : {} };
}

/** Share of the first 200 non-empty lines that look like paths (with / or an extension). */
function sniff(text: string): number {
  const lines = text.split(/\r?\n/, 400).map((l) => l.trim()).filter((l) => l !== '').slice(0, 200);
  if (lines.length === 0) return 0;
  const pathy = lines.filter((l) => PATHLIKE.test(l) && (l.includes('/') || /\.\w{1,8}$/.test(l) || l.endsWith(':'))).length;
  return pathy / lines.length;
}

export const pathsProcessor: Processor = { kind: 'paths', lineShaped: true, tools: ['glob', 'list'], sniff, process };
