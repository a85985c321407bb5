// The git log processor on real git log output in its common forms (see
// scripts/code-diff-fixtures.ts): every commit's hash, author, date and subject
// stay; bodies and stats fold with their totals.
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { gitlogProcessor } from '../../src/processors/gitlog.js';
import { backendName } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { accountedLines, firstInventedLine } from '../support/outline.js';

const squeeze = createSqueeze({ backend: backendName, store: null, retainOriginal: false, recentResults: 0, minTokens: 50 });
const logs = fixtures('gitlog');

describe(`git log processor (${backendName})`, () => {
  it.each(logs.map((f) => [f.name, f] as const))('%s keeps every commit at light and aggressive, each line original or a marker', (_, fixture) => {
    for (const level of ['light', 'aggressive'] as const) {
      const result = squeeze.compress(fixture.text, { level, kind: 'gitlog' });
      for (const needle of fixture.keep) expect(result.output).toContain(needle);
      expect(firstInventedLine(result.output, fixture.text)).toBeNull();
      expect(accountedLines(result.output)).toBe(fixture.text.split('\n').length);
    }
  });

  it('folds bodies and per-file stats at light, keeping each stat summary line and the totals', () => {
    const log = logs.find((f) => f.name === 'log-stat')!;
    const output = squeeze.compress(log.text, { level: 'light', kind: 'gitlog' }).output;
    expect(output).toMatch(/^\[… lines \d+–\d+ \(\d+\): message body …\]$/m);
    const summaries = log.text.split('\n').filter((l) => / files? changed/.test(l));
    for (const line of summaries) expect(output).toContain(line);
    const insertions = summaries.reduce((sum, l) => sum + Number(/(\d+) insertions?/.exec(l)?.[1] ?? 0), 0);
    expect(output).toContain(`[… stats of ${summaries.length} commits: `);
    expect(output).toContain(`${insertions.toLocaleString("en-US")} insertions(+)`);
  });

  it('gives one marker per commit at aggressive, with the merge parents of a merge', () => {
    const log = logs.find((f) => f.name === 'log')!;
    const output = squeeze.compress(log.text, { level: 'aggressive', kind: 'gitlog' }).output;
    const commits = log.text.split('\n').filter((l) => l.startsWith('commit ')).length;
    expect(output.split('\n').filter((l) => /^\[… lines \d+–\d+ \(\d+\): commit [0-9a-f]{10}, /.test(l))).toHaveLength(commits);
    const merge = /^Merge: (.*)$/m.exec(log.text)![1]!;
    expect(output).toContain(`merge of ${merge}`);
  });

  it('folds the oldest commits by hash range when even one line per commit is over maxTokens', () => {
    const log = logs.find((f) => f.name === 'project-log-stat')!;
    const tight = createSqueeze({ backend: backendName, store: null, retainOriginal: false, recentResults: 0, targetTokens: 200, maxTokens: 800 });
    const result = tight.compress(log.text, { kind: 'gitlog' });
    expect(result.tokensOut).toBeLessThanOrEqual(800);
    expect(result.output).toMatch(/\[… lines \d+–\d+ \(\d+\): \d+ older commits, [0-9a-f]{10} … [0-9a-f]{10} …\]/);
    expect(result.output.split('\n')[0]).toMatch(/^\[… lines 1–\d+ \(\d+\): commit [0-9a-f]{10}, /);
  });

  it('sniffs default, --graph and --oneline --stat logs, and leaves a log with patches to the diff processor', () => {
    for (const f of logs) expect(gitlogProcessor.sniff(f.text), f.name).toBeGreaterThanOrEqual(0.6);
    const routed = squeeze.compress(logs.find((f) => f.name === 'log')!.text, { level: 'light' });
    expect(routed.kind).toBe('gitlog');
  });
});

describeNeverLarger(gitlogProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
