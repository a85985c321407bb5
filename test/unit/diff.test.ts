// The diff processor on real git diff / git show / diff -u output (see
// scripts/code-diff-fixtures.ts): headers and changed lines of hand-written
// files stay, context folds, generated files shrink to their counts.
import { describe, expect, it } from 'vitest';
import { diffProcessor } from '../../src/processors/diff/index.js';
import { backendName, analysisOf } from '../support/backend.js';
import { runProcessor, testSqueeze } from '../support/processor-run.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { extractiveViolation } from '../support/extractive.js';

const squeeze = testSqueeze({ recentResults: 0, minTokens: 50 });
const diffs = fixtures('diff');

/** A `git show` compressed with maxTokens half of its tokens. */
function atHalfItsTokens(text: string) {
  const whole = testSqueeze({ recentResults: 0 }).compress(text, { level: 'light', minTokens: 1 });
  const maxTokens = Math.floor(whole.tokensIn / 2);
  const tight = testSqueeze({ recentResults: 0, targetTokens: Math.min(500, maxTokens), maxTokens });
  return { result: tight.compress(text, { command: 'git show' }), maxTokens };
}

describe(`diff processor on git and diff -u output (${backendName})`, () => {
  it.each(diffs.map((f) => [f.name, f] as const))(
    '%s keeps every header and changed line, each line original or a marker',
    (_, fixture) => {
      for (const level of ['light', 'aggressive'] as const) {
        const result = squeeze.compress(fixture.text, { level });
        expect(result.kind).toBe('diff');
        for (const needle of fixture.keep) expect(result.output).toContain(needle);
        expect(extractiveViolation(fixture.text, result.output)).toBeNull();
      }
    },
  );

  it('summarises lockfiles, bundles and snapshots as +N −M lines under their kept file and hunk headers', () => {
    const diff = diffs.find((f) => f.name === 'git-diff')!;
    const output = squeeze.compress(diff.text, { level: 'light' }).output;
    const section = (text: string, path: string) => {
      const at = text.indexOf(`+++ b/${path}\n`);
      const next = text.indexOf('diff --git', at);
      return text
        .slice(at, next < 0 ? undefined : next)
        .trimEnd()
        .split('\n')
        .slice(1);
    };
    for (const path of ['package-lock.json', 'dist/query.min.js', 'src/__snapshots__/report.test.py.snap']) {
      const shown = section(output, path);
      const hunks = section(diff.text, path).filter((l) => l.startsWith('@@'));
      // Each hunk header of the original, then its body as one count.
      expect(shown.filter((_, i) => i % 2 === 0)).toEqual(hunks);
      for (const marker of shown.filter((_, i) => i % 2 === 1))
        expect(marker).toMatch(/^\[… lines \d+–\d+ \([\d,]+\): generated file, \+[\d,]+ −[\d,]+ …\]$/);
    }
    const lockfile = section(diff.text, 'package-lock.json');
    const sum = (sign: 1 | 2) =>
      section(output, 'package-lock.json')
        .map((l) => /generated file, \+([\d,]+) −([\d,]+)/.exec(l))
        .reduce((n, m) => n + (m ? Number(m[sign]!.replace(/,/g, '')) : 0), 0);
    expect(sum(1)).toBe(lockfile.filter((l) => l.startsWith('+')).length);
    expect(sum(2)).toBe(lockfile.filter((l) => l.startsWith('-')).length);
  });

  it('folds only context lines, each run into one marker naming its lines', () => {
    const diff = diffs.find((f) => f.name === 'project-diff')!;
    const lines = diff.text.split('\n');
    const output = squeeze.compress(diff.text, { level: 'light' }).output;
    const markers = [...output.matchAll(/^\[… lines (\d+)–(\d+) \((\d+)\): context …\]$/gm)];
    expect(markers.length).toBeGreaterThan(10);
    for (const [, from, to, n] of markers) {
      expect(Number(to) - Number(from) + 1).toBe(Number(n));
      for (const line of lines.slice(Number(from) - 1, Number(to)))
        expect(line === '' || line.startsWith(' ')).toBe(true);
    }
  });

  it('keeps git show commit headers and messages', () => {
    const show = diffs.find((f) => f.name === 'git-show')!;
    const output = squeeze.compress(show.text, { level: 'aggressive' }).output;
    expect(output.split('\n').slice(0, 10)).toEqual(show.text.split('\n').slice(0, 10));
  });

  it('sniffs diffs without a command', () => {
    for (const f of diffs) expect(diffProcessor.sniff(analysisOf(f.text))).toBeGreaterThanOrEqual(0.95);
    expect(diffProcessor.sniff(analysisOf('--- a note\nnot a diff\n+++ nor this'))).toBe(0);
  });

  it('over maxTokens, summarises the hunks of the biggest hand-written files too, every file and hunk header kept', () => {
    const diff = diffs.find((f) => f.name === 'project-diff')!;
    const tight = testSqueeze({ recentResults: 0, targetTokens: 1000, maxTokens: 2500 });
    const result = tight.compress(diff.text);
    expect(result.tokensOut).toBeLessThanOrEqual(2500);
    expect(result.output).toMatch(
      /^\[… lines \d+–\d+ \([\d,]+\): hunk of a file over the size limit, \+[\d,]+ −[\d,]+ …\]$/m,
    );
    for (const header of diff.text.split('\n').filter((l) => /^(?:diff --git|\+\+\+|---|@@) /.test(l)))
      expect(result.output).toContain(header);
    expect(extractiveViolation(diff.text, result.output)).toBeNull();
  });

  it('over maxTokens, shows a big new file as the outline of its code before counting its lines', () => {
    const body = (n: number) => Array.from({ length: 14 }, (_, i) => `+  const step${i} = input * ${n + i} + offset;`);
    const added = Array.from({ length: 10 }, (_, n) => [
      `+/** Scales the input for stage ${n}. */`,
      `+export function stage${n}(input: number, offset: number): number {`,
      ...body(n),
      '+  return step13;',
      '+}',
      '+',
    ]).flat();
    const text = [
      'diff --git a/src/stages.ts b/src/stages.ts',
      'new file mode 100644',
      'index 0000000..1111111',
      '--- /dev/null',
      '+++ b/src/stages.ts',
      `@@ -0,0 +1,${added.length} @@`,
      ...added,
      'diff --git a/src/main.ts b/src/main.ts',
      'index 2222222..3333333 100644',
      '--- a/src/main.ts',
      '+++ b/src/main.ts',
      '@@ -1,3 +1,3 @@',
      ' import { run } from "./run";',
      '-run(1);',
      '+run(2);',
      ' export {};',
    ].join('\n');
    const { result, maxTokens } = atHalfItsTokens(text);
    expect(result.tokensOut).toBeLessThanOrEqual(maxTokens);
    for (let n = 0; n < 10; n++) {
      // Six header lines, then 19 per function: its doc line, signature, 15 body lines, `}` and a blank.
      const body = 9 + 19 * n;
      expect(result.output).toContain(`+export function stage${n}(input: number, offset: number): number {`);
      expect(result.output).toContain(`[… lines ${body}–${body + 14} (15): body of stage${n}, +15 −0 …]`);
    }
    expect(result.output).toContain('-run(1);\n+run(2);');
    expect(extractiveViolation(text, result.output)).toBeNull();
  });

  it('outlines an added file without its final line break: the "\\ No newline" line is no code', () => {
    const fn = (n: number) => [
      `+def step${n}(value):`,
      ...Array.from({ length: 10 }, (_, i) => `+    value = value * ${n + i} + 1`),
    ];
    const added = Array.from({ length: 12 }, (_, n) => fn(n)).flat();
    const text = [
      'diff --git a/steps.py b/steps.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/steps.py',
      `@@ -0,0 +1,${added.length} @@`,
      ...added,
      '\\ No newline at end of file',
      'diff --git a/main.py b/main.py',
      '--- a/main.py',
      '+++ b/main.py',
      '@@ -1,2 +1,2 @@',
      '-run(1)',
      '+run(2)',
    ].join('\n');
    const { output } = atHalfItsTokens(text).result;
    // Five header lines, then 11 per function: its def line and 10 body lines.
    expect(output).toContain('[… lines 128–137 (10): body of step11, +10 −0 …]');
    expect(output).toContain('\\ No newline at end of file');
    expect(extractiveViolation(text, output)).toBeNull();
  });

  it('knows a generated file by its marker line, not by the words "generated by" in prose', () => {
    const file = (path: string, first: string) => [
      `diff --git a/${path} b/${path}`,
      'index 1111111..2222222 100644',
      `--- a/${path}`,
      `+++ b/${path}`,
      '@@ -1,5 +1,5 @@',
      ` ${first}`,
      ' ',
      '-old value',
      '+new value',
      ...Array.from({ length: 2 }, (_, i) => ` context ${i}`),
    ];
    const text = [
      ...file('README.md', 'Generated by `npm run eval` on 2026-11-30.'),
      ...file('api/types.go', '// Code generated by protoc-gen-go. DO NOT EDIT.'),
    ].join('\n');
    const output = squeeze.compress(text, { level: 'light', minTokens: 1 }).output;
    expect(output).toContain('-old value\n+new value');
    expect(output).toMatch(
      /^\+\+\+ b\/api\/types\.go\n@@ -1,5 \+1,5 @@\n\[… lines 17–22 \(6\): generated file, \+1 −1 …\]$/m,
    );
  });

  it('says when its harshest form is still over maxTokens, and then a lower maxTokens gives the same output', () => {
    const base = diffs.find((f) => f.name === 'git-diff')!.text;
    // Forty copies: the file and hunk headers alone are over the ceiling.
    const text = Array.from({ length: 40 }, () => base).join('');
    const budget = 500;
    const over = runProcessor(diffProcessor, text, { level: 'aggressive', budget, maxTokens: 2000 });
    expect(over.floor).toBe(2000);
    for (const maxTokens of [1999, 1000, 100]) {
      const lower = runProcessor(diffProcessor, text, { level: 'aggressive', budget, maxTokens });
      expect(lower.text).toBe(over.text);
      expect(lower.floor).toBe(maxTokens);
    }
    // Where it fits, it says nothing.
    expect(runProcessor(diffProcessor, base, { level: 'aggressive', budget, maxTokens: 2000 }).floor).toBeUndefined();
  });

  it('passes a diff through unchanged at lossless', () => {
    const diff = diffs.find((f) => f.name === 'project-diff')!;
    expect(squeeze.compress(diff.text, { level: 'lossless', maxTokens: 100_000, targetTokens: 100_000 }).output).toBe(
      diff.text,
    );
  });
});

describeNeverLarger(diffProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
