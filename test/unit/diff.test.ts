// The diff processor on real git diff / git show / diff -u output (see
// scripts/code-diff-fixtures.ts): headers and changed lines of hand-written
// files stay, context folds, generated files shrink to their counts.
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { diffProcessor } from '../../src/processors/diff.js';
import { backendName } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { accountedLines, firstInventedLine } from '../support/outline.js';

const squeeze = createSqueeze({ backend: backendName, store: null, retainOriginal: false, recentResults: 0, minTokens: 50 });
const diffs = fixtures('diff');

describe(`diff processor on git and diff -u output (${backendName})`, () => {
  it.each(diffs.map((f) => [f.name, f] as const))('%s keeps every header and changed line, each line original or a marker', (_, fixture) => {
    for (const level of ['light', 'aggressive'] as const) {
      const result = squeeze.compress(fixture.text, { level });
      expect(result.kind).toBe('diff');
      for (const needle of fixture.keep) expect(result.output).toContain(needle);
      expect(firstInventedLine(result.output, fixture.text)).toBeNull();
      expect(accountedLines(result.output)).toBe(fixture.text.split('\n').length);
    }
  });

  it('summarises lockfiles, bundles and snapshots as +N −M lines under their kept headers', () => {
    const diff = diffs.find((f) => f.name === 'git-diff')!;
    const output = squeeze.compress(diff.text, { level: 'light' }).output;
    for (const path of ['package-lock.json', 'dist/query.min.js', 'src/__snapshots__/report.test.py.snap']) {
      const at = output.indexOf(`+++ b/${path}\n`);
      expect(at).toBeGreaterThan(-1);
      expect(output.slice(at).split('\n')[1]).toMatch(/^\[… lines \d+–\d+ \([\d,]+\): generated file, \+[\d,]+ −[\d,]+ lines …\]$/);
    }
    const lockfile = diff.text.slice(diff.text.indexOf('+++ b/package-lock.json'), diff.text.indexOf('diff --git', diff.text.indexOf('+++ b/package-lock.json')));
    const plus = lockfile.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
    const minus = lockfile.split('\n').filter((l) => l.startsWith('-')).length;
    expect(output).toContain(`generated file, +${plus} −${minus} lines`);
  });

  it('folds only context lines, each run into one marker naming its lines', () => {
    const diff = diffs.find((f) => f.name === 'project-diff')!;
    const lines = diff.text.split('\n');
    const output = squeeze.compress(diff.text, { level: 'light' }).output;
    const markers = [...output.matchAll(/^\[… lines (\d+)–(\d+) \((\d+)\): context …\]$/gm)];
    expect(markers.length).toBeGreaterThan(10);
    for (const [, from, to, n] of markers) {
      expect(Number(to) - Number(from) + 1).toBe(Number(n));
      for (const line of lines.slice(Number(from) - 1, Number(to))) expect(line === '' || line.startsWith(' ')).toBe(true);
    }
  });

  it('keeps git show commit headers and messages', () => {
    const show = diffs.find((f) => f.name === 'git-show')!;
    const output = squeeze.compress(show.text, { level: 'aggressive' }).output;
    expect(output.split('\n').slice(0, 10)).toEqual(show.text.split('\n').slice(0, 10));
  });

  it('sniffs diffs without a command', () => {
    for (const f of diffs) expect(diffProcessor.sniff(f.text)).toBeGreaterThanOrEqual(0.95);
    expect(diffProcessor.sniff('--- a note\nnot a diff\n+++ nor this')).toBe(0);
  });

  it('over maxTokens, summarises the biggest hand-written files too, every file header kept', () => {
    const diff = diffs.find((f) => f.name === 'project-diff')!;
    const tight = createSqueeze({ backend: backendName, store: null, retainOriginal: false, recentResults: 0, targetTokens: 1000, maxTokens: 2500 });
    const result = tight.compress(diff.text);
    expect(result.tokensOut).toBeLessThanOrEqual(2500);
    expect(result.output).toMatch(/^\[… lines \d+–\d+ \([\d,]+\): file over the size limit, \+[\d,]+ −[\d,]+ lines …\]$/m);
    for (const header of diff.text.split('\n').filter((l) => /^(?:diff --git|\+\+\+|---) /.test(l))) expect(result.output).toContain(header);
    expect(firstInventedLine(result.output, diff.text)).toBeNull();
  });

  it('passes a diff through unchanged at lossless', () => {
    const diff = diffs.find((f) => f.name === 'project-diff')!;
    expect(squeeze.compress(diff.text, { level: 'lossless', maxTokens: 100_000, targetTokens: 100_000 }).output).toBe(diff.text);
  });
});

describeNeverLarger(diffProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
