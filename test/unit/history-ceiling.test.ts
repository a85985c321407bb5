// A big diff or git log with preserved items inside it (security words in the
// code it changes, a TODO in a commit message) stays structured over the
// ceiling: every file header and commit line is shown or counted by position,
// the preserved lines are shown or counted, and the emergency form is not used.
// The history is made with real git in a temporary repository.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { backendName } from '../support/backend.js';
import { hasProgram } from '../support/system-program.js';

const FILES = 64;
const DIRECTORIES = ['src/engine/', 'src/pipeline/', 'src/processors/', 'test/unit/', 'docs/'];
/** Lines each file has, and every how many of them one is changed (a hunk each). */
const LINES = 100;
const EVERY = 10;
/** Commits per file: each changes its own part of the file's lines. */
const PARTS = 2;
const COMMITS = FILES * PARTS;
/** Changed lines that the pipeline preserves (its vulnerability, action and security rules). */
const PRESERVED = [
  'scan for a vulnerability before release',
  'TODO: drop the fallback once the security policy requires it',
];

const git = hasProgram('git', 'history over the ceiling (a repository made with git)');

function run(repo: string, ...args: string[]): string {
  const done = spawnSync('git', ['-c', 'core.pager=cat', '-c', 'color.ui=never', ...args], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Dana Writer',
      GIT_AUTHOR_EMAIL: 'dana@example.com',
      GIT_COMMITTER_NAME: 'Dana Writer',
      GIT_COMMITTER_EMAIL: 'dana@example.com',
      GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z',
      GIT_COMMITTER_DATE: '2026-01-02T03:04:05Z',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: repo,
    },
  });
  if (done.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${done.stderr}`);
  return done.stdout;
}

function pathOf(k: number): string {
  return `${DIRECTORIES[k % DIRECTORIES.length]}module-${k}.ts`;
}

/** File k with its first `parts` parts changed. */
function source(k: number, parts: number): string {
  return Array.from({ length: LINES }, (_, i) => {
    if (i % EVERY !== 1 || i >= (parts * LINES) / PARTS)
      return `export const value${k}x${i} = compute(${i}, 'module ${k}');`;
    const preserved = k % 8 === 3 && i === 1 ? `  // ${PRESERVED[(k >> 3) % 2]} (module ${k})` : '';
    return `export const value${k}x${i} = computeAgain(${i}, 'module ${k}', { strict: true });${preserved}`;
  }).join('\n');
}

let repo = '';
let diff = '';
let log = '';
/** The first commits: the base one adds every file. */
let first = '';

beforeAll(() => {
  if (!git) return;
  repo = mkdtempSync(join(tmpdir(), 'squeeze-history-'));
  run(repo, 'init', '-q');
  const write = (k: number, parts: number) => {
    const path = join(repo, pathOf(k));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${source(k, parts)}\n`);
  };
  for (let k = 0; k < FILES; k++) write(k, 0);
  run(repo, 'add', '.');
  run(repo, 'commit', '-q', '-m', 'Base of every module');
  for (let part = 1; part <= PARTS; part++) {
    for (let k = 0; k < FILES; k++) {
      write(k, part);
      run(repo, 'add', '.');
      // A commit's message holds a preserved line now and then.
      const body = k % 16 === 5 ? ['-m', `TODO: review module ${k} with the security team, who must sign off`] : [];
      run(repo, 'commit', '-q', '-m', `Compute part ${part} of module ${k} again, strictly`, ...body);
    }
  }
  diff = run(repo, 'diff', `HEAD~${COMMITS}`);
  log = run(repo, 'log', '--stat', '-n', String(COMMITS));
  first = run(repo, 'log', '--stat', `HEAD~${COMMITS - 2}`);
});

afterAll(() => {
  if (repo !== '') rmSync(repo, { recursive: true, force: true });
});

/** Lines of `text` matching `rule`. */
function linesOf(text: string, rule: RegExp): string[] {
  return text.split('\n').filter((line) => rule.test(line));
}

/** What the output's markers count of a unit (`3 file headers`, `1 preserved line`). */
function counted(output: string, unit: string): number {
  const rule = new RegExp(`(\\d+) ${unit}s?\\b`, 'g');
  return [...output.matchAll(rule)].reduce((sum, m) => sum + Number(m[1]), 0);
}

const squeezeAt = (maxTokens?: number) =>
  createSqueeze({
    backend: backendName,
    ...(maxTokens === undefined ? {} : { maxTokens, targetTokens: Math.min(4000, maxTokens) }),
  });

describe.runIf(git)(`a history with preserved items over the ceiling (${backendName})`, () => {
  it('is made of a diff of 64 files and a log of 128 commits, both with preserved lines, both over the default ceiling', () => {
    expect(linesOf(diff, /^diff --git /)).toHaveLength(FILES);
    expect(linesOf(diff, /^@@ /)).toHaveLength((FILES * LINES) / EVERY);
    expect(linesOf(log, /^commit [0-9a-f]{40}$/)).toHaveLength(COMMITS);
    const { estimator } = squeezeAt();
    expect(estimator.estimate(diff)).toBeGreaterThan(2 * 12_000);
    expect(estimator.estimate(log)).toBeGreaterThan(12_000);
    for (const line of PRESERVED) expect(diff).toContain(line);
    expect(log).toContain('TODO: review module');
  });

  it.each([undefined, 6000, 2000])(
    'the diff keeps every file header, or counts those it cuts, at maxTokens %s',
    (max) => {
      const result = squeezeAt(max).compress(diff, { toolName: 'bash', command: `git diff HEAD~${COMMITS}` });
      expect(result.kind).toBe('diff');
      expect(result.level).not.toBe('emergency');
      expect(result.tokensOut).toBeLessThanOrEqual(max ?? 12_000);
      const headers = linesOf(diff, /^diff --git /);
      const shown = headers.filter((line) => result.output.split('\n').includes(line));
      // Cut by position: the first ones shown, the rest counted in the markers.
      expect(shown).toEqual(headers.slice(0, shown.length));
      expect(shown.length + counted(result.output, 'file header')).toBe(FILES);
      if (max !== 2000) expect(shown).toHaveLength(FILES);
      // Each preserved line is shown, or counted where it was cut.
      const preserved = linesOf(diff, /vulnerability|TODO:/);
      const missing = preserved.filter((line) => !result.output.includes(line));
      expect(missing.length).toBe(counted(result.output, 'preserved line'));
      if (max !== 2000) expect(missing).toEqual([]);
    },
  );

  it.each([undefined, 6000, 2000])(
    'the log keeps every commit line, or counts the oldest by position, and every preserved line, at maxTokens %s',
    (max) => {
      const result = squeezeAt(max).compress(log, { toolName: 'bash', command: 'git log --stat' });
      expect(result.kind).toBe('gitlog');
      expect(result.level).not.toBe('emergency');
      expect(result.tokensOut).toBeLessThanOrEqual(max ?? 12_000);
      const commits = linesOf(log, /^commit [0-9a-f]{40}$/);
      const output = result.output.split('\n');
      const shown = commits.filter((line) => output.includes(line));
      expect(shown).toEqual(commits.slice(0, shown.length));
      expect(shown.length + counted(result.output, 'older commit')).toBe(COMMITS);
      if (max === undefined) expect(shown).toHaveLength(COMMITS);
      for (const line of linesOf(log, /TODO: review module/)) expect(output, line).toContain(line);
    },
  );

  it('a folded commit names the files of its stat, counted per directory', () => {
    const result = squeezeAt().compress(first, { toolName: 'bash', command: 'git log --stat', level: 'aggressive' });
    expect(result.level).toBe('aggressive');
    const output = result.output.split('\n');
    for (const line of linesOf(first, /^commit /)) expect(output).toContain(line);
    const base = linesOf(result.output, /"Base of every module"/);
    expect(base).toHaveLength(1);
    expect(base[0]).toContain(`stat of ${FILES} files: `);
    // Directories in git's order (by path), each with its number of files.
    const named = [...DIRECTORIES].sort().map((dir) => {
      const files = Array.from({ length: FILES }, (_, k) => pathOf(k)).filter((path) => path.startsWith(dir));
      return `${dir} ${files.length}`;
    });
    for (const place of named.slice(0, 4)) expect(base[0]).toContain(place);
    // The others' one file each, by its path.
    for (const marker of linesOf(result.output, /^\[… lines .*Compute part/))
      expect(marker).toMatch(/stat of 1 file: (?:src|test|docs)\/\S*module-\d+\.ts\b/);
  });
});
