// The direction of dependencies docs/ARCHITECTURE.md states, read from every
// import in src/ (static, re-exports and dynamic `import()`, type-only ones
// included) by TypeScript's own pre-parser. Each area may import itself and the
// areas below it; a new top-level file or folder fails until it is placed here.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Highest first: an area may import areas of its own rank or lower. */
const RANK: Record<string, number> = {
  adapters: 9,
  cli: 9,
  playground: 9, // the browser page: an application like the CLI, over the pipeline
  'index.ts': 8, // the public API
  eval: 7,
  demo: 7,
  pipeline: 6,
  store: 5,
  processors: 4,
  'types.ts': 3, // the processor shape
  engine: 2,
  text: 1, // leaf text helpers: importable from anywhere, importing nothing above
};

/**
 * The adapters reach the core through the public API, the store's entry and
 * the leaf helpers only; pipeline, processors and engine files are off limits.
 */
const ADAPTER_TARGETS = ['index.ts', 'store/index.ts', 'text/'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** src-relative path of every file in src/ that `file` imports. */
function imports(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((ref) => ref.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(SRC, join(dirname(file), spec)).replace(/\.js$/, '.ts'))
    .filter((target) => !target.startsWith('..'));
}

const area = (path: string): string => path.split('/')[0]!;

const edges = sources(SRC).flatMap((file) => {
  const from = relative(SRC, file);
  return imports(file).map((to) => ({ from, to }));
});

describe('layers', () => {
  it('reads the imports of every area', () => {
    const seen = new Set(edges.map((e) => `${area(e.from)}->${area(e.to)}`));
    for (const arrow of [
      'adapters->index.ts',
      'cli->eval',
      'pipeline->processors',
      'processors->engine',
      'pipeline->store',
    ]) {
      expect(seen).toContain(arrow);
    }
  });

  it('places every top-level file and folder of src/', () => {
    const unplaced = readdirSync(SRC).filter((name) => !(name in RANK));
    expect(unplaced).toEqual([]);
  });

  it('has no import from a lower area to a higher one', () => {
    const upward = edges
      .filter(({ from, to }) => (RANK[area(to)] ?? 0) > (RANK[area(from)] ?? 0))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(upward).toEqual([]);
  });

  it('adapters, the CLI and the playground do not import each other', () => {
    const across = edges
      .filter(({ from, to }) => area(from) !== area(to) && RANK[area(from)] === RANK[area(to)])
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(across).toEqual([]);
  });

  it('the adapters import only the public API, the store entry and leaf helpers', () => {
    const bypass = edges
      .filter(({ from, to }) => area(from) === 'adapters' && area(to) !== 'adapters')
      .filter(
        ({ to }) =>
          !ADAPTER_TARGETS.some((allowed) => (allowed.endsWith('/') ? to.startsWith(allowed) : to === allowed)),
      )
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(bypass).toEqual([]);
  });
});
