// `npm run corpus`: regenerates test/corpus/everyday, the everyday coding-agent
// outputs (source reads, grep, listings, diffs, git, tables, builds), by building
// a scratch workspace in a temp folder and running real commands and the real
// DSH tools in it. Each output gets `<name>.needles.json` (written rules per
// kind, scripts/corpus/needles.ts) and a row in manifest.json.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mountDshTools, type DshTools } from '../../test/support/dsh-tools.js';
import { HELD_OUT_RULE, isHeldOut } from './held-out.js';
import { pickNeedles, type Kind } from './needles.js';
import { deployYaml, dfH, dockerPs, kubectlPods, latencyTsv, ordersCsv, psAux } from './synthetic.js';
import { createWorkspace, MAIN_MODULES, pinTimes, run, type Workspace } from './workspace.js';

export const OUT_DIR = resolve(import.meta.dirname, '../../test/corpus/everyday');
/** Where the scratch workspace appears in the corpus, whatever temp folder it really had. */
const SHOWN_ROOT = '/tmp/work';

interface Capture {
  readonly name: string;
  readonly kind: Kind;
  /** The DSH tool that returns it (`bash` for shell commands). */
  readonly tool: 'read' | 'grep' | 'glob' | 'bash';
  /** The shell command (bash), else null. */
  readonly command?: string;
  /** The DSH tool call's arguments (read, grep, glob, and bash when `viaDsh`). */
  readonly args?: Record<string, unknown>;
  /** Run through the real DSH bash tool (its framing: stderr section, exit code, truncation notice). */
  readonly viaDsh?: boolean;
  /** Folder relative to the repository the command runs in. */
  readonly cwd?: string;
  /** Source language of a read, for the declaration rule. */
  readonly language?: string;
  /** What a grep pattern matches, as a JavaScript regex. */
  readonly match?: RegExp;
  /** Programs that must exist; otherwise the capture is skipped and listed. */
  readonly needs?: readonly string[];
  /** Synthetic output (tables that would leak this machine): the text, no command run. */
  readonly synthetic?: () => string;
}

const has = (program: string) => spawnSync('bash', ['-c', `command -v ${program}`]).status === 0;

// Reference files copied into the workspace (licences in LICENSES.md).
const REFERENCES: Array<[string, string]> = [
  [join(MAIN_MODULES, 'assemblyscript/std/assembly/string.ts'), 'node_modules/assemblyscript/std/assembly/string.ts'],
  [
    join(MAIN_MODULES, 'assemblyscript/std/assembly/typedarray.ts'),
    'node_modules/assemblyscript/std/assembly/typedarray.ts',
  ],
  [join(MAIN_MODULES, 'typescript/lib/typesMap.json'), 'node_modules/typescript/lib/typesMap.json'],
  [join(MAIN_MODULES, 'better-sqlite3/deps/sqlite3/sqlite3.c'), '../vendor/sqlite3.c'],
];

function pythonModule(module: string): string | null {
  const out = spawnSync('python3', ['-c', `import ${module}, os; print(os.path.dirname(${module}.__file__))`], {
    encoding: 'utf8',
  });
  return out.status === 0 ? out.stdout.trim() : null;
}

function captures(): Capture[] {
  const c: Capture[] = [];
  const read = (
    name: string,
    path: string,
    language: string,
    extra: Record<string, unknown> = {},
    kind: Kind = 'code',
  ) => c.push({ name, kind, tool: 'read', args: { file_path: path, ...extra }, language });
  read('read-string-ts', 'node_modules/assemblyscript/std/assembly/string.ts', 'ts');
  read('read-typedarray-ts-window', 'node_modules/assemblyscript/std/assembly/typedarray.ts', 'ts', {
    offset: 600,
    limit: 700,
  });
  read('read-range-js', 'node_modules/semver/classes/range.js', 'js');
  read('read-tokenizer-js', 'node_modules/htmlparser2/dist/Tokenizer.js', 'js');
  read('read-diff-min-js', 'node_modules/diff/dist/diff.min.js', 'js');
  read('read-pytest-python-py', 'py/.venv/lib/python3/site-packages/_pytest/python.py', 'py');
  read('read-pytest-main-py', 'py/.venv/lib/python3/site-packages/_pytest/main.py', 'py');
  read('read-sqlite3-c-window', '../vendor/sqlite3.c', 'c', { offset: 135_000, limit: 900 });
  read('read-ledger-rs', 'ledger/src/lib.rs', 'rs');
  read('read-cart-ts', 'src/cart.ts', 'ts');
  read('read-typesmap-json', 'node_modules/typescript/lib/typesMap.json', 'json', {}, 'document');
  read('read-deploy-yaml', 'deploy/k8s.yaml', 'yaml', {}, 'document');
  read('read-semver-readme-md', 'node_modules/semver/README.md', 'md', {}, 'document');
  read('read-minimatch-readme-md', 'node_modules/minimatch/README.md', 'md', {}, 'document');

  const bash = (name: string, kind: Kind, command: string, more: Partial<Capture> = {}) =>
    c.push({ name, kind, tool: 'bash', command, ...more });
  // grep and friends
  bash('grep-rn-throw-new', 'grep', "grep -rn 'throw new' node_modules --exclude='*.min.js' --exclude='*.map'", {
    match: /throw new/,
  });
  bash('grep-rn-function-diff', 'grep', "grep -rn 'function' node_modules/diff/dist node_modules/diff/lib/index.mjs", {
    match: /function/,
  });
  bash('grep-rn-function-vendored', 'grep', "grep -rn 'function' node_modules", { match: /function/, viaDsh: true });
  bash(
    'grep-rn-notes',
    'grep',
    "grep -rn 'note [0-9]*:' --include='*.ts' --include='*.py' --include='*.rs' --include='*.c' .",
    { match: /note \d*:/ },
  );
  bash('grep-rni-deprecated', 'grep', "grep -rni 'deprecated' node_modules --exclude='*.map'", {
    match: /deprecated/i,
  });
  bash('git-grep-money', 'grep', "git grep -n 'money('", { match: /money\(/ });
  bash('git-grep-fn', 'grep', "git grep -n -e 'fn ' -- ledger", { match: /fn / });
  bash('rg-n-require', 'grep', "rg -n --sort path 'require\\(' node_modules", { match: /require\(/, needs: ['rg'] });
  c.push({
    name: 'dsh-grep-throw',
    kind: 'grep',
    tool: 'grep',
    args: { pattern: 'throw new', path: 'node_modules/magic-string' },
    match: /throw new/,
  });
  c.push({
    name: 'dsh-grep-function-min',
    kind: 'grep',
    tool: 'grep',
    args: { pattern: 'function\\s+\\w+\\(', path: 'node_modules/diff/dist' },
    match: /function\s+\w+\(/,
  });
  c.push({
    name: 'dsh-grep-reserve',
    kind: 'grep',
    tool: 'grep',
    args: { pattern: 'reserve', include: '*.py' },
    match: /reserve/,
  });
  c.push({ name: 'dsh-glob-js', kind: 'grep', tool: 'glob', args: { pattern: '**/*.js', path: 'node_modules' } });
  c.push({ name: 'dsh-glob-sources', kind: 'grep', tool: 'glob', args: { pattern: '**/*.{ts,py,rs,c,h}' } });
  c.push({ name: 'dsh-glob-package-json', kind: 'grep', tool: 'glob', args: { pattern: '**/package.json' } });

  // listings
  bash('ls-l-piscina-dist', 'listing', 'ls -l node_modules/piscina/dist');
  bash('ls-la-root', 'listing', 'ls -la');
  bash('ls-la-src', 'listing', 'ls -la src');
  bash('ls-lar-semver', 'listing', 'ls -laR node_modules/semver');
  bash('ls-lar-repo', 'listing', 'ls -laR', { viaDsh: true });
  bash('ls-lr-node-modules', 'listing', 'ls -lR node_modules');
  bash('find-type-f', 'listing', 'find . -path ./.git -prune -o -type f -print | sort');
  bash('find-dts', 'listing', "find node_modules -name '*.d.ts' | sort");
  bash('find-node-modules', 'listing', 'find node_modules | sort', { viaDsh: true });
  bash('du-ah-piscina', 'listing', 'du -ah node_modules/piscina | sort -k2');
  bash('du-sh-node-modules', 'listing', 'du -sh node_modules/* | sort -k2');
  bash('du-max-depth', 'listing', 'du -h --max-depth=2 . | sort -k2');
  bash('tree-semver', 'listing', 'tree node_modules/semver', { needs: ['tree'] });
  bash('tree-repo', 'listing', "tree -a -I 'node_modules|.git'", { needs: ['tree'] });

  // diffs and git
  bash('git-diff', 'diff', 'git diff');
  bash('git-diff-stat', 'diff', 'git diff --stat');
  bash('git-diff-tag', 'diff', 'git diff v1.4.0 HEAD');
  bash('git-show-lockfile', 'diff', 'git show HEAD~4', { viaDsh: true });
  bash('git-show-merge', 'diff', 'git show --stat HEAD~36');
  bash('git-show-python', 'diff', 'git show HEAD~40');
  bash('git-diff-range', 'diff', 'git diff HEAD~40 HEAD');
  bash('git-log-patch', 'diff', 'git log -p');
  bash('git-log', 'gitlog', 'git log');
  bash('git-log-stat', 'gitlog', 'git log --stat');
  bash('git-log-graph', 'gitlog', 'git log --graph --oneline --all');
  bash('git-log-oneline', 'gitlog', 'git log --oneline', { viaDsh: true });
  bash('git-log-format', 'gitlog', "git log --format='%h %an %ad %s' --date=short");
  bash('git-log-graph-full', 'gitlog', 'git log --graph --decorate -20');
  bash('git-status', 'git', 'git status');
  bash('git-status-short', 'git', 'git status -s', { viaDsh: true });
  bash('git-blame-cart', 'git', 'git blame src/cart.ts');
  bash('git-blame-stock', 'git', 'git blame py/inventory/stock.py');
  bash('git-branch', 'git', 'git branch -a -v');

  // tables
  c.push({ name: 'ps-aux', kind: 'table', tool: 'bash', command: 'ps aux', synthetic: psAux });
  c.push({
    name: 'kubectl-get-pods',
    kind: 'table',
    tool: 'bash',
    command: 'kubectl get pods -A',
    synthetic: kubectlPods,
  });
  c.push({ name: 'docker-ps', kind: 'table', tool: 'bash', command: 'docker ps -a', synthetic: dockerPs });
  c.push({ name: 'df-h', kind: 'table', tool: 'bash', command: 'df -h', synthetic: dfH });
  bash('cat-orders-csv', 'table', 'cat data/orders.csv');
  bash('head-latency-tsv', 'table', 'head -n 300 data/latency.tsv');
  bash('pip-list', 'table', 'pip list', { needs: ['pip'] });

  // builds, tests and package managers
  bash('npm-install', 'build', 'npm install --no-audit --no-fund', { cwd: 'npmapp', needs: ['npm'] });
  bash('npm-ls', 'build', 'npm ls --all', { cwd: 'npmapp', needs: ['npm'] });
  bash('npm-outdated', 'build', 'npm outdated', { cwd: 'npmapp', needs: ['npm'] });
  bash('npm-test', 'build', 'npm test', { viaDsh: true, needs: ['npm'] });
  bash('npm-test-raw', 'build', 'npm test', { needs: ['npm'] });
  bash('tsc-noemit', 'build', 'tsc --noEmit -p .');
  bash('tsc-pretty', 'build', 'tsc --noEmit -p . --pretty');
  bash('vitest-run', 'build', 'vitest run --reporter=default', { cwd: '../vt' });
  bash('pytest', 'build', 'python3 -m pytest', { cwd: 'py', viaDsh: true, needs: ['python3'] });
  bash('pytest-v', 'build', 'python3 -m pytest -v', { cwd: 'py', needs: ['python3'] });
  bash('pip-freeze', 'build', 'pip freeze', { needs: ['pip'] });
  bash('make-gcc', 'build', 'make -k', { cwd: 'native', viaDsh: true, needs: ['make', 'gcc'] });
  bash('make-gcc-raw', 'build', 'make -k', { cwd: 'native', needs: ['make', 'gcc'] });
  bash('cargo-build', 'build', 'cargo build --offline', { cwd: 'ledger', viaDsh: true, needs: ['cargo'] });
  bash('cargo-build-raw', 'build', 'cargo build --offline', { cwd: 'ledger', needs: ['cargo'] });
  bash('eslint', 'build', 'eslint src', { needs: ['eslint'] });
  return c;
}

/** Scratch paths, spill paths, owners and timings: what would differ between two runs or leak the machine. */
function normalise(text: string, ws: Workspace, kind: Kind): string {
  let out = text.split(ws.root).join(SHOWN_ROOT).split(`${homedir()}/`).join('~/');
  out = out.replace(
    /\/tmp\/dsh-subprocess-\w+\/dsh-subprocess-\d+-\d+-[0-9a-f]+-(stdout|stderr)\.log/g,
    `/tmp/dsh-subprocess-000000/dsh-subprocess-1000-1-000000000000-$1.log`,
  );
  out = out
    .replace(/(Not Committed Yet )\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, '$12025-07-01 12:00:00')
    .replace(/ object at 0x[0-9a-f]+/g, ' object at 0x7f0000000000');
  const user = userInfo().username;
  if (user !== 'dev' && kind === 'listing')
    out = out.replace(new RegExp(` ${user} +${user} `, 'g'), (m) =>
      m.replace(new RegExp(user, 'g'), 'dev'.padEnd(user.length)),
    );
  if (kind === 'build') {
    out = out
      .replace(/\b(in|after|took) \d+(\.\d+)?(ms|s)\b/g, '$1 1.00s')
      .replace(/\bduration_ms:? \d+(\.\d+)?/g, 'duration_ms 1.000')
      .replace(/\((\d+(\.\d+)?)(ms|s)\)/g, '(1ms)')
      .replace(/^(\s*Start at\s+)\d\d:\d\d:\d\d/gm, '$109:30:00')
      .replace(/^(\s*Duration\s+.*)$/gm, (m) => m.replace(/\d+(\.\d+)?(ms|s)/g, '10ms'))
      .replace(/ \d+(\.\d+)?(ms|s)$/gm, ' 1ms');
  }
  return out;
}

/**
 * ripgrep walks in parallel, so DSH's grep lists files in a different order on
 * every run: its per-file sections (each byte-identical to the tool's) are put
 * in path order. Patterns stay under its 250-match cap, where the set of
 * matches is complete and so stable too.
 */
function sortGrepSections(text: string): string {
  const [head, ...sections] = text.split('\n\n');
  if (!head || !/^Found \d+ match/.test(head) || sections.length < 2) return text;
  return [head, ...sections.sort()].join('\n\n');
}

async function capture(spec: Capture, ws: Workspace, tools: DshTools): Promise<string> {
  if (spec.synthetic) return spec.synthetic();
  const cwd = resolve(ws.repo, spec.cwd ?? '.');
  if (spec.tool === 'grep') return sortGrepSections(await tools.text('grep', spec.args ?? {}));
  if (spec.tool !== 'bash') return tools.text(spec.tool, spec.args ?? {});
  if (spec.viaDsh)
    return tools.text('bash', {
      command: spec.command!,
      description: `Run ${spec.command!.split(' ')[0]}`,
      workdir: cwd,
      timeoutMs: 300_000,
    });
  return run(cwd, spec.command!, ws.env, 300_000).out;
}

function prepare(ws: Workspace): void {
  for (const [from, to] of REFERENCES) {
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(ws.repo, to)), { recursive: true });
    copyFileSync(from, join(ws.repo, to));
  }
  const pytestDir = pythonModule('_pytest');
  if (pytestDir) {
    for (const file of ['python.py', 'main.py']) {
      const to = join(ws.repo, 'py/.venv/lib/python3/site-packages/_pytest', file);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(pytestDir, file), to);
    }
  }
  mkdirSync(join(ws.repo, 'deploy'), { recursive: true });
  writeFileSync(join(ws.repo, 'deploy/k8s.yaml'), deployYaml());
  mkdirSync(join(ws.repo, 'data'), { recursive: true });
  writeFileSync(join(ws.repo, 'data/orders.csv'), ordersCsv());
  writeFileSync(join(ws.repo, 'data/latency.tsv'), latencyTsv());
  // A separate npm project for install/ls/outdated against the registry (pinned old versions).
  mkdirSync(join(ws.repo, 'npmapp'), { recursive: true });
  writeFileSync(
    join(ws.repo, 'npmapp/package.json'),
    `${JSON.stringify(
      {
        name: 'npmapp',
        version: '0.1.0',
        private: true,
        dependencies: { debug: '4.3.4', semver: '7.5.0', picomatch: '2.3.1' },
        devDependencies: { diff: '5.1.0' },
      },
      null,
      2,
    )}\n`,
  );
  // A vitest project with one failing test (vitest from the project's own install).
  if (existsSync(join(ws.root, 'vt/node_modules/vitest'))) {
    writeFileSync(join(ws.root, 'vt/package.json'), '{ "name": "vt", "private": true, "type": "module" }\n');
    writeFileSync(
      join(ws.root, 'vt/cart.test.js'),
      [
        "import { describe, expect, it } from 'vitest';",
        '',
        'const total = (items) => items.reduce((sum, [price, qty]) => sum + price * qty, 0);',
        '',
        "describe('cart total', () => {",
        "  it('sums price times quantity', () => {",
        '    expect(total([[250, 2], [100, 1]])).toBe(600);',
        '  });',
        "  it('is zero for an empty cart', () => {",
        '    expect(total([])).toBe(0);',
        '  });',
        "  it('applies the bulk discount', () => {",
        '    expect(total([[1000, 10]])).toBe(9000);',
        '  });',
        '});',
        '',
      ].join('\n'),
    );
  }
  pinTimes(ws.root);
}

export interface ManifestEntry {
  file: string;
  kind: Kind;
  tool: string;
  command: string | null;
  arguments: Record<string, unknown> | null;
  heldOut: boolean;
  synthetic: boolean;
  bytes: number;
  needles: number;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'squeeze-corpus-'));
  const skipped: { name: string; why: string }[] = [];
  const entries: ManifestEntry[] = [];
  try {
    const ws = createWorkspace(root);
    prepare(ws);
    const tools = await mountDshTools({ cwd: ws.repo, dshHome: join(ws.home, '.dsh') });
    // Only what this script writes is replaced (README.md and LICENSES.md are kept).
    for (const kind of new Set(captures().map((spec) => spec.kind)))
      rmSync(join(OUT_DIR, kind), { recursive: true, force: true });
    for (const spec of captures()) {
      const missing = (spec.needs ?? []).filter((p) => !has(p));
      if (missing.length > 0) {
        skipped.push({ name: spec.name, why: `${missing.join(', ')} not installed` });
        process.stderr.write(`skip ${spec.name}: ${missing.join(', ')} not installed\n`);
        continue;
      }
      const raw = await capture(spec, ws, tools);
      const text = normalise(raw, ws, spec.kind);
      if (text.trim() === '' || /command not found|ENOTFOUND|EAI_AGAIN/.test(text.slice(0, 2000))) {
        skipped.push({ name: spec.name, why: `no output (${text.trim().split('\n')[0]?.slice(0, 120) ?? 'empty'})` });
        process.stderr.write(`skip ${spec.name}: ${text.trim().slice(0, 120)}\n`);
        continue;
      }
      const file = `${spec.kind}/${spec.name}.txt`;
      const needles = pickNeedles(
        text,
        {
          kind: spec.kind,
          tool: spec.tool,
          command: spec.command ?? null,
          ...(spec.match ? { match: spec.match } : {}),
        },
        spec.language,
      );
      mkdirSync(join(OUT_DIR, spec.kind), { recursive: true });
      writeFileSync(join(OUT_DIR, file), text);
      writeFileSync(
        join(OUT_DIR, spec.kind, `${spec.name}.needles.json`),
        `${JSON.stringify(
          {
            tool: spec.tool,
            type: spec.kind === 'build' ? 'log' : 'text',
            kind: spec.kind,
            command: spec.command ?? null,
            file: `${spec.name}.txt`,
            needles,
            needle_rules: `scripts/corpus/needles.ts, rule "${spec.kind}"`,
          },
          null,
          2,
        )}\n`,
      );
      entries.push({
        file,
        kind: spec.kind,
        tool: spec.tool,
        command: spec.command ?? null,
        arguments:
          spec.tool === 'bash'
            ? spec.viaDsh
              ? { command: spec.command, workdir: spec.cwd ?? '.' }
              : null
            : (spec.args ?? null),
        heldOut: isHeldOut(spec.name),
        synthetic: spec.synthetic !== undefined,
        bytes: Buffer.byteLength(text),
        needles: needles.length,
      });
      process.stderr.write(`${file}: ${Buffer.byteLength(text)} bytes, ${needles.length} needles\n`);
    }
    await tools.dispose();
    const tool = (cmd: string) => run(root, cmd, ws.env).out.trim().split('\n')[0];
    writeFileSync(
      join(OUT_DIR, 'manifest.json'),
      `${JSON.stringify(
        {
          generatedBy: 'npm run corpus (scripts/corpus/build.ts)',
          workspace: SHOWN_ROOT,
          versions: {
            node: process.version,
            git: tool('git --version'),
            gcc: tool('gcc --version'),
            cargo: tool('cargo --version'),
            python: tool('python3 --version'),
            ripgrep: tool('rg --version'),
          },
          heldOutRule: HELD_OUT_RULE,
          skipped,
          files: entries,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const bytes = entries.reduce((s, e) => s + e.bytes, 0);
  process.stderr.write(`${entries.length} files, ${(bytes / 1e6).toFixed(2)} MB, ${skipped.length} skipped\n`);
}

await main();
