// Writes test/fixtures/{code,diff,gitlog}: real outputs of DSH's `read` tool
// (the published @deepseek-ai/dsh-tool-fs), `cat`, git and `diff -u`, made in a
// scratch workspace from project-made files (test/fixtures/sources and the
// project's own sources). Each fixture gets a `.keep.json` by the rules below,
// written here and not in the processors. Run: npx tsx scripts/code-diff-fixtures.ts
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Context } from '@deepseek-ai/cordis';
import { LocalFileSystem } from '@deepseek-ai/dsh-fs-local';
import * as FsPolicy from '@deepseek-ai/dsh-fs-observation-policy';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import * as ToolFs from '@deepseek-ai/dsh-tool-fs';
import ToolRuntime from '@deepseek-ai/dsh-tools';

const ROOT = resolve(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'test/fixtures');
const work = mkdtempSync(join(tmpdir(), 'squeeze-fixtures-'));

function write(folder: string, name: string, text: string, keep: readonly string[]): void {
  mkdirSync(join(FIXTURES, folder), { recursive: true });
  writeFileSync(join(FIXTURES, folder, name), text);
  writeFileSync(
    join(FIXTURES, folder, `${name.replace(/\.[^.]+$/, '')}.keep.json`),
    `${JSON.stringify([...new Set(keep)], null, 2)}\n`,
  );
}

// --- Source reads -----------------------------------------------------------

const sources: Record<string, string> = {
  'inventory.py': 'test/fixtures/sources/inventory.py',
  'ringbuf.c': 'test/fixtures/sources/ringbuf.c',
  'tokenizer.rs': 'test/fixtures/sources/tokenizer.rs',
  'deployment.yaml': 'test/fixtures/sources/deployment.yaml',
  'pipeline.ts': 'src/pipeline/index.ts',
  'log.ts': 'src/processors/log/index.ts',
  'package.json': 'package.json',
  'README.md': 'README.md',
};
for (const [name, path] of Object.entries(sources)) copyFileSync(join(ROOT, path), join(work, name));
execFileSync(join(ROOT, 'node_modules/.bin/esbuild'), [
  join(ROOT, 'src/processors/log/index.ts'),
  '--bundle',
  '--minify',
  '--format=esm',
  `--outfile=${join(work, 'bundle.min.js')}`,
  '--log-level=warning',
]);

/** Keep rule for reads: the path line, the footer, and lines declaring something at the top level. */
const TOP_DECLARATION =
  /^\d+: (?:(?:export|pub|async|static|default)\s+)*(?:import|from|function|class|interface|type|const|def|fn|struct|enum|impl|mod|use|trait|#include|#define|[a-z][\w ]*\*?\w+\([^;]*\)\s*\{?$)/;
const TOP_KEY = { md: /^\d+: #{1,3} /, yaml: /^\d+: [A-Za-z_-]+:(?: |$)/, json: /^\d+: {2}"[^"]+":/ } as Record<
  string,
  RegExp
>;

const ctx = new Context();
await ctx.plugin(SystemPrompt);
await ctx.plugin(ToolRuntime);
await ctx.plugin(LocalFileSystem, { cwd: work });
await ctx.plugin(FsPolicy);
await ctx.plugin(ToolFs);
const agent = { session: { header: { id: 'fixtures', cwd: work } } };
let calls = 0;
async function read(args: Record<string, unknown>): Promise<string> {
  const result = await ctx.tools.execute({
    callId: `read-${calls++}` as never,
    name: 'read',
    arguments: args,
    signal: new AbortController().signal,
    agent: agent as never,
  });
  const block = result.content[0] as { type: string; text?: string };
  if (result.isError || block.type !== 'text' || block.text === undefined)
    throw new Error(`read ${JSON.stringify(args)} failed`);
  return block.text;
}
function readKeep(text: string): string[] {
  const lines = text.split('\n');
  const rule = TOP_KEY[/\.(\w+)<\/path>/.exec(lines[0]!)![1]!] ?? TOP_DECLARATION;
  return [lines[0]!, lines.at(-2)!, ...lines.filter((l) => rule.test(l) && l.length < 300).slice(0, 40)];
}
for (const name of Object.keys(sources)) {
  const text = await read({ file_path: name });
  write('code', `read-${name.replace(/\./g, '-')}.txt`, text, readKeep(text));
}
const partial = await read({ file_path: 'pipeline.ts', offset: 120, limit: 60 });
write('code', 'read-partial-pipeline-ts.txt', partial, readKeep(partial));
const minified = await read({ file_path: 'bundle.min.js' });
write('code', 'read-minified-js.txt', minified, [minified.split('\n')[0]!, minified.split('\n').at(-2)!]);
const cat = readFileSync(join(work, 'ringbuf.c'), 'utf8');
write(
  'code',
  'cat-ringbuf-c.txt',
  cat,
  cat.split('\n').filter((l) => /^(?:#include|struct \w+ \{|[a-z].*\)$)/.test(l)),
);

// --- A git repository with history, a branch, a merge, a lockfile and a bundle ---

const repo = join(work, 'repo');
mkdirSync(repo);
let clock = Date.UTC(2026, 10, 2, 9, 14, 5) / 1000;
function git(...args: string[]): string {
  clock += 3 * 3600 + 17 * 60 + 41;
  const date = `${clock} +0000`;
  return execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    },
  });
}
function put(path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}
function edit(path: string, from: string, to: string): void {
  const text = readFileSync(join(repo, path), 'utf8');
  if (!text.includes(from)) throw new Error(`${path}: ${from} not found`);
  put(path, text.replace(from, to));
}
function commit(author: string, message: string): void {
  git('add', '-A');
  git(
    '-c',
    `user.name=${author.split(' <')[0]}`,
    '-c',
    `user.email=${author.split(' <')[1]!.slice(0, -1)}`,
    'commit',
    '-q',
    '-m',
    message,
  );
}
const ADA = 'Ada Byron <ada@example.org>';
const LIN = 'Lin Chen <lin.chen@example.org>';
const SAM = 'Sam Okafor <sam@example.net>';
const bundle = (entry: string) =>
  execFileSync(
    join(ROOT, 'node_modules/.bin/esbuild'),
    [join(ROOT, entry), '--bundle', '--minify', '--format=esm', '--log-level=warning'],
    { encoding: 'utf8' },
  );

git('init', '-q', '-b', 'main');
for (const name of ['inventory.py', 'ringbuf.c', 'tokenizer.rs', 'deployment.yaml'])
  put(`src/${name}`, readFileSync(join(work, name), 'utf8'));
put('package.json', readFileSync(join(ROOT, 'package.json'), 'utf8'));
put('package-lock.json', readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
put('README.md', '# warehouse\n\nInventory service, ring buffer and expression tokenizer.\n');
commit(
  ADA,
  'Initial import of the warehouse service\n\nThe inventory module, the ring buffer used by the journal writer and the\ntokenizer of the query language, with the deployment manifest.',
);
edit('src/inventory.py', 'MAX_QUANTITY = 1_000_000', 'MAX_QUANTITY = 5_000_000');
edit(
  'src/inventory.py',
  '    def low_stock(self, threshold: int = 5) -> list[Item]:\n',
  '    def low_stock(self, threshold: int = 10) -> list[Item]:\n        """Items at or below `threshold` units, lowest first."""\n',
);
commit(
  LIN,
  'inventory: raise the quantity cap and the low-stock threshold\n\nThe Rotterdam warehouse holds pallets of 2.4 million screws; the old cap of\none million refused their import. Ten units is what purchasing asked for.\n\nRefs: WH-412',
);
git('checkout', '-q', '-b', 'feature/cache');
edit('src/deployment.yaml', 'image: redis:7.2-alpine', 'image: redis:7.4-alpine');
edit(
  'src/deployment.yaml',
  '              memory: 64Mi\n',
  '              memory: 128Mi\n            limits:\n              memory: 256Mi\n',
);
commit(SAM, 'deploy: newer redis for the cache sidecar, with a memory limit');
edit(
  'src/ringbuf.c',
  '\trb->closed = true;\n',
  '\tif (rb->closed) {\n\t\tpthread_mutex_unlock(&rb->lock);\n\t\treturn;\n\t}\n\trb->closed = true;\n',
);
commit(
  SAM,
  'ringbuf: make ringbuf_close() idempotent\n\nClosing twice broadcast twice to readers that had already left; harmless,\nbut the second close now returns at once.',
);
git('checkout', '-q', 'main');
edit(
  'src/tokenizer.rs',
  "            '+' => { self.chars.next(); single(TokenKind::Plus) }\n",
  "            '+' => {\n                self.chars.next();\n                single(TokenKind::Plus)\n            }\n",
);
commit(ADA, 'tokenizer: format the plus arm like the others will be');
git(
  '-c',
  'user.name=Ada Byron',
  '-c',
  'user.email=ada@example.org',
  'merge',
  '-q',
  '--no-ff',
  '-m',
  "Merge branch 'feature/cache'",
  'feature/cache',
);
put('dist/query.min.js', bundle('src/processors/markers.ts'));
put(
  'src/__snapshots__/report.test.py.snap',
  `# name: test_report\n  '''\n  SKU          NAME                                          QTY\n  A-100        Screws M4                                       3\n  '''\n`,
);
commit(LIN, 'build: ship the query bundle and the report snapshot');
for (let k = 0; k < 6; k++) {
  put(
    `CHANGELOG.md`,
    `# Changelog\n\n${Array.from({ length: k + 1 }, (_, i) => `- 0.${i + 1}.0: release ${i + 1}\n`).join('')}`,
  );
  commit(
    k % 3 === 0 ? ADA : k % 3 === 1 ? LIN : SAM,
    `release 0.${k + 1}.0\n\n${k % 2 ? 'Changelog only.' : 'Changelog entry for the release; no code change.\nTagged after CI passed on main.'}`,
  );
}

const log = (...args: string[]) => git('--no-pager', 'log', ...args);
const logKeep = (text: string) => {
  const keep: string[] = [];
  for (const m of text.matchAll(/\b(?:commit )?([0-9a-f]{40})\b/g)) keep.push(m[1]!.slice(0, 7));
  for (const line of text.split('\n')) {
    const field = /(?:Author|Date):\s+(.*?)(?: <[^>]*>)?$/.exec(line);
    if (field) keep.push(field[1]!);
  }
  return keep;
};
const subjects = log('--format=%s').split('\n').filter(Boolean);
for (const [name, args] of [
  ['log', []],
  ['log-stat', ['--stat']],
  ['log-graph', ['--graph']],
  ['log-graph-stat', ['--graph', '--stat']],
  ['log-fuller', ['--format=fuller']],
  ['log-oneline-stat', ['--oneline', '--stat']],
] as const) {
  const text = log(...args);
  write('gitlog', `${name}.txt`, text, [...logKeep(text), ...subjects]);
}
// The project's own history: a real log of real size.
const own = execFileSync('git', ['--no-pager', 'log', '--stat', '-n', '80'], { cwd: ROOT, encoding: 'utf8' });
write('gitlog', 'project-log-stat.txt', own, [
  ...logKeep(own),
  ...execFileSync('git', ['--no-pager', 'log', '--format=%s', '-n', '80'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean),
]);

// --- Diffs --------------------------------------------------------------------

/** Keep rule for diffs: file headers, hunk headers and changed lines of hand-written files. */
function diffKeep(text: string): string[] {
  const keep: string[] = [];
  let generated = false;
  for (const line of text.split('\n')) {
    if (/^diff --git /.test(line)) {
      generated = /package-lock\.json|\.min\.js|\.snap\b/.test(line);
      keep.push(line);
    } else if (/^(?:commit |Author: |Date: |\+\+\+ |--- |rename |new file mode )/.test(line)) keep.push(line);
    else if (!generated && /^@@ /.test(line)) keep.push(line);
    else if (!generated && /^[+-]/.test(line) && line.trim().length > 3) keep.push(line);
  }
  return keep;
}
edit('src/inventory.py', '        needle = text.lower()\n', '        needle = text.casefold()\n');
edit(
  'src/inventory.py',
  '            haystack = " ".join([item.sku, item.name, *item.tags]).lower()\n',
  '            haystack = " ".join([item.sku, item.name, *item.tags]).casefold()\n',
);
edit(
  'src/inventory.py',
  '    merged = Inventory(left.path)\n',
  '    merged = Inventory(left.path)\n    log.info("merging %d and %d items", len(left), len(right))\n',
);
edit('src/ringbuf.c', '#define RINGBUF_MIN_CAPACITY 16', '#define RINGBUF_MIN_CAPACITY 64');
edit(
  'src/tokenizer.rs',
  "            if c.is_ascii_digit() || c == '.' || c == '_' {",
  "            if c.is_ascii_digit() || c == '.' || c == '_' || c == 'e' {",
);
const lock = readFileSync(join(repo, 'package-lock.json'), 'utf8');
let bumped = 0;
put(
  'package-lock.json',
  lock.replace(/"version": "(\d+)\.(\d+)\.(\d+)"/g, (all, a: string, b: string, c: string) =>
    bumped++ % 7 === 3 ? `"version": "${a}.${b}.${Number(c) + 1}"` : all,
  ),
);
put('dist/query.min.js', bundle('src/processors/keep-preserved.ts'));
put(
  'src/__snapshots__/report.test.py.snap',
  `# name: test_report\n  '''\n  SKU          NAME                                          QTY\n  A-100        Screws M4                                       5\n  '''\n`,
);
const diff = git('--no-pager', 'diff');
write('diff', 'git-diff.txt', diff, diffKeep(diff));
const handWritten = git('--no-pager', 'diff', '--', 'src/inventory.py', 'src/ringbuf.c', 'src/tokenizer.rs');
write('diff', 'git-diff-source.txt', handWritten, diffKeep(handWritten));
const range = git('--no-pager', 'diff', 'HEAD~9', 'HEAD~6');
write('diff', 'git-diff-range.txt', range, diffKeep(range));
for (const [name, rev] of [
  ['git-show', 'HEAD~9'],
  ['git-show-ringbuf', 'HEAD~7^2'],
  ['git-show-build', 'HEAD~6'],
] as const) {
  const show = git('--no-pager', 'show', rev);
  write('diff', `${name}.txt`, show, diffKeep(show));
}
// The project's own recent changes: a real diff of real size.
const ownDiff = execFileSync('git', ['--no-pager', 'diff', '1368e0b~10', '1368e0b', '--', 'src', 'test/unit'], {
  cwd: ROOT,
  encoding: 'utf8',
});
write('diff', 'project-diff.txt', ownDiff, diffKeep(ownDiff));
// The project's own history with its patches: eight commits over 24 files.
const ownPatches = execFileSync('git', ['--no-pager', 'log', '-p', '-n', '8', '1368e0b', '--', 'src', 'test/unit'], {
  cwd: ROOT,
  encoding: 'utf8',
});
write('gitlog', 'project-log-patch.txt', ownPatches, diffKeep(ownPatches));
put('old.py', readFileSync(join(work, 'inventory.py'), 'utf8'));
let unified = '';
try {
  execFileSync('diff', ['-u', 'old.py', 'src/inventory.py'], { cwd: repo, encoding: 'utf8' });
} catch (error) {
  unified = (error as { stdout: string }).stdout;
}
write('diff', 'diff-u.txt', unified, diffKeep(unified));

rmSync(work, { recursive: true, force: true });
console.log('fixtures written to test/fixtures/{code,diff,gitlog}');
