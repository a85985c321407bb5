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

const PATHLIKE = /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)?[^\s:*?"<>|]+(?: [^\s:*?"<>|]+)*$/;

function newDir(): Dir {
  return { children: new Map(), files: 0, collapsed: false };
}

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
    for (const part of path.split('/').filter(Boolean)) {
      let next = dir.children.get(part);
      if (!next) dir.children.set(part, (next = newDir()));
      dir = next;
    }
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

function render(root: Dir): string {
  const lines: string[] = [];
  const walk = (d: Dir, indent: string) => {
    for (const [name, child] of d.children) {
      let label = name;
      let node = child;
      // fold single-directory chains: a/b/c/
      while (node.children.size === 1 && !node.collapsed) {
        const [n, c] = node.children.entries().next().value!;
        if (c.children.size === 0) break;
        label += `/${n}`;
        node = c;
      }
      if (node.children.size === 0) {
        lines.push(`${indent}${label}`);
      } else if (node.collapsed) {
        const exts = new Map<string, number>();
        extensions(node, exts);
        const parts = [...exts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([e, n]) => `${count(n)} ${e}`);
        lines.push(`${indent}${label}/ (${plural(node.files, 'file')}: ${parts.join(', ')})`);
      } else {
        lines.push(`${indent}${label}/ (${plural(node.files, 'file')})`);
        walk(node, `${indent}  `);
      }
    }
  };
  walk(root, '');
  return lines.join('\n');
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
    const dirs: Dir[] = [];
    const gather = (d: Dir) => {
      for (const c of d.children.values()) if (c.children.size > 0) (dirs.push(c), gather(c));
    };
    gather(root);
    // Directories holding the most files directly go first: they are the long runs of names.
    const direct = (d: Dir) => [...d.children.values()].filter((c) => c.children.size === 0).length;
    const candidates = dirs.filter((d) => d.files >= 4).sort((a, b) => direct(b) - direct(a) || b.files - a.files);
    for (const d of candidates) {
      if (estimate(text) <= target) break;
      d.collapsed = true;
      text = render(root);
    }
    collapsedFiles = dirs.filter((d) => d.collapsed).reduce((a, d) => a + d.files, 0);
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

export const pathsProcessor: Processor = { kind: 'paths', sniff, process };
