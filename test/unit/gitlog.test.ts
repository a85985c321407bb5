// The git log processor on real git log output in its common forms (see
// scripts/code-diff-fixtures.ts): every commit's hash, author, date and subject
// stay; bodies and stats fold with their totals.
import { describe, expect, it } from 'vitest';
import { gitlogProcessor } from '../../src/processors/gitlog/index.js';
import { backendName, analysisOf } from '../support/backend.js';
import { testSqueeze } from '../support/processor-run.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { extractiveViolation } from '../support/extractive.js';

const squeeze = testSqueeze({ recentResults: 0, minTokens: 50 });
const logs = fixtures('gitlog');
/** A pipeline whose target is `targetTokens`, its hard ceiling far above any log here. */
const wide = (targetTokens: number) => testSqueeze({ recentResults: 0, targetTokens, maxTokens: 100000 });

describe(`git log processor (${backendName})`, () => {
  it.each(logs.map((f) => [f.name, f] as const))(
    '%s keeps every commit at light and aggressive, each line original or a marker',
    (_, fixture) => {
      for (const level of ['light', 'aggressive'] as const) {
        const result = squeeze.compress(fixture.text, { level, kind: 'gitlog' });
        for (const needle of fixture.keep) expect(result.output).toContain(needle);
        expect(extractiveViolation(fixture.text, result.output)).toBeNull();
      }
    },
  );

  it('folds bodies and per-file stats at light, keeping each stat summary line and the totals', () => {
    const log = logs.find((f) => f.name === 'log-stat')!;
    const output = squeeze.compress(log.text, { level: 'light', kind: 'gitlog' }).output;
    expect(output).toMatch(/^\[… lines \d+–\d+ \(\d+\): message body …\]$/m);
    const summaries = log.text.split('\n').filter((l) => / files? changed/.test(l));
    for (const line of summaries) expect(output).toContain(line);
    const insertions = summaries.reduce((sum, l) => sum + Number(/(\d+) insertions?/.exec(l)?.[1] ?? 0), 0);
    expect(output).toContain(`[… stats of ${summaries.length} commits: `);
    expect(output).toContain(`${insertions.toLocaleString('en-US')} insertions(+)`);
  });

  it('names the files of each folded stat per directory: a directory with its count, a file alone by its path', () => {
    const log = logs.find((f) => f.name === 'project-log-stat')!;
    const lines = log.text.split('\n');
    const output = wide(100000).compress(log.text, { level: 'light', kind: 'gitlog' }).output.split('\n');
    const folds = output.flatMap((l) => {
      const m = /^\[… lines ([\d,]+)–([\d,]+) \(\d+\): stat of (\d+) files: (.*) …\]$/.exec(l);
      return m
        ? [
            {
              from: Number(m[1]!.replace(',', '')),
              to: Number(m[2]!.replace(',', '')),
              files: Number(m[3]),
              places: m[4]!,
            },
          ]
        : [];
    });
    expect(folds.length).toBeGreaterThan(5);
    for (const fold of folds) {
      const paths = lines.slice(fold.from - 1, fold.to).map((l) => l.slice(0, l.indexOf('|')).trim());
      let counted = 0;
      for (const place of fold.places.split(', ')) {
        if (place.startsWith('+')) {
          counted = fold.files;
          break;
        }
        const dir = / (\d+)$/.exec(place);
        const name = dir ? place.slice(0, -dir[0].length) : place;
        const within = paths.filter((p) =>
          dir ? `${p.slice(0, p.lastIndexOf('/') + 1) || './'}` === name : p === name,
        );
        expect(within.length, place).toBe(dir ? Number(dir[1]) : 1);
        counted += within.length;
      }
      expect(counted).toBe(fold.files);
    }
  });

  it('keeps every commit line as printed at aggressive, its other lines one marker with author, date, subject and merge parents', () => {
    const log = logs.find((f) => f.name === 'log')!;
    const output = squeeze.compress(log.text, { level: 'aggressive', kind: 'gitlog' }).output.split('\n');
    const commitLines = log.text.split('\n').filter((l) => l.startsWith('commit '));
    expect(output.filter((l) => l.startsWith('commit '))).toEqual(commitLines);
    for (const line of commitLines)
      expect(output[output.indexOf(line) + 1]).toMatch(
        /^\[… lines \d+–\d+ \(\d+\): .+, \w{3} \w{3} +\d+ [\d:]+ \d{4} [+-]\d{4}, "/,
      );
    const merge = /^Merge: (.*)$/m.exec(log.text)![1]!;
    expect(output.join('\n')).toContain(`merge of ${merge}`);
  });

  it('names an author every commit shares once, in the first marker, and each commit by its date and subject', () => {
    const log = logs.find((f) => f.name === 'project-log-stat')!;
    const authors = new Set([...log.text.matchAll(/^Author: (.*?) </gm)].map((m) => m[1]!));
    expect(authors.size).toBe(1);
    const [author] = authors;
    const output = squeeze.compress(log.text, { level: 'aggressive', kind: 'gitlog' }).output;
    expect(output.split(author!)).toHaveLength(2);
    expect(output).toContain(`${author} (the author of every commit here), `);
    const commitLines = log.text.split('\n').filter((l) => l.startsWith('commit '));
    const lines = output.split('\n');
    for (const line of commitLines.slice(1))
      expect(lines[lines.indexOf(line) + 1]).toMatch(
        /^\[… lines \d+–\d+ \(\d+\): (?:merge of [0-9a-f ]+, )?\w{3} \w{3} +\d+ [\d:]+ \d{4} [+-]\d{4}, "/,
      );
  });

  it('keeps each full hash and stat summary line inline when a --stat log is over budget at light', () => {
    const log = logs.find((f) => f.name === 'project-log-stat')!;
    const lines = log.text.split('\n');
    const full = lines.filter((l) => /^commit [0-9a-f]{40}$/.test(l));
    const summaries = lines.filter((l) => /^ \d+ files? changed/.test(l)).map((l) => l.trim());
    // The budget is what one line and one marker per commit take (aggressive with room to spare);
    // the log with only its bodies and per-file stats folded is over it.
    const budget = wide(100000).compress(log.text, { level: 'aggressive', kind: 'gitlog' }).tokensOut;
    expect(wide(100000).compress(log.text, { level: 'light', kind: 'gitlog' }).tokensOut).toBeGreaterThan(budget);
    const result = wide(budget).compress(log.text, { level: 'light', kind: 'gitlog' });
    expect(result.tokensOut).toBeLessThanOrEqual(budget);
    for (const line of full) expect(result.output.split('\n')).toContain(line);
    for (const summary of summaries) expect(result.output).toContain(summary);
  });

  it('leaves the most common stat summary to the totals marker when one marker per commit with every summary is over budget', () => {
    const log = logs.find((f) => f.name === 'log-stat')!;
    const lines = log.text.split('\n');
    const summaries = lines.filter((l) => /^ \d+ files? changed/.test(l)).map((l) => l.trim());
    const common = summaries.find((l) => summaries.filter((m) => m === l).length >= 2)!;
    // One token less than one line and one marker per commit with every summary take (the final line break's token apart).
    const budget = wide(100000).compress(log.text, { level: 'aggressive', kind: 'gitlog' }).tokensOut - 2;
    const result = wide(budget).compress(log.text, { level: 'light', kind: 'gitlog' });
    // the processor holds the budget; the pipeline's final line break may cost one token more
    expect(result.tokensOut).toBeLessThanOrEqual(budget + 1);
    for (const line of lines.filter((l) => l.startsWith('commit '))) expect(result.output.split('\n')).toContain(line);
    for (const summary of new Set(summaries)) expect(result.output).toContain(summary);
    const shared = summaries.filter((l) => l === common).length;
    expect(result.output).toContain(`; ${common} in each of the ${shared} commits shown without their stat summary …]`);
    expect(result.output.split(common)).toHaveLength(2);
  });

  it('over maxTokens keeps every commit line, cutting the subjects in its markers before any commit goes', () => {
    const log = logs.find((f) => f.name === 'project-log-stat')!;
    const commitLines = log.text.split('\n').filter((l) => l.startsWith('commit '));
    // The ceiling lies between what one line and one marker per commit take with no subject and with whole ones.
    const whole = wide(100).compress(log.text, { level: 'aggressive', kind: 'gitlog' }).tokensOut;
    const maxTokens = Math.floor(whole * 0.9);
    const result = testSqueeze({ recentResults: 0, targetTokens: 100, maxTokens }).compress(log.text, {
      kind: 'gitlog',
    });
    expect(result.tokensOut).toBeLessThanOrEqual(maxTokens);
    expect(result.output.split('\n').filter((l) => l.startsWith('commit '))).toEqual(commitLines);
    expect(result.output).not.toContain('older commit');
    expect(result.output).toMatch(/, "[^"\n]+…" …\]$/m);
    expect(extractiveViolation(log.text, result.output)).toBeNull();
  });

  it('over maxTokens with no room for each commit’s files, names where all the stats changed in the totals', () => {
    const log = logs.find((f) => f.name === 'project-log-stat')!;
    // A ceiling under what one marker per commit with its files takes even with short subjects.
    const noFiles = wide(100).compress(log.text, { level: 'aggressive', kind: 'gitlog' });
    expect(noFiles.output).not.toMatch(/stat of \d+ files?: /);
    const maxTokens = noFiles.tokensOut;
    const result = testSqueeze({ recentResults: 0, targetTokens: 100, maxTokens }).compress(log.text, {
      kind: 'gitlog',
    });
    expect(result.tokensOut).toBeLessThanOrEqual(maxTokens);
    expect(result.output).not.toMatch(/stat of \d+ files?: /);
    const places = /; changed most in (.*) …\]$/m.exec(result.output)?.[1];
    expect(places).toBeDefined();
    // The most changed directory of the whole log comes first, with its count of stat lines.
    const dirs = new Map<string, number>();
    for (const m of log.text.matchAll(/^ (\S+?)\s+\|\s+(?:\d+|Bin\b)/gm)) {
      const dir = m[1]!.includes('/') ? m[1]!.slice(0, m[1]!.lastIndexOf('/') + 1) : './';
      dirs.set(dir, (dirs.get(dir) ?? 0) + 1);
    }
    const [top, n] = [...dirs].sort((a, b) => b[1] - a[1])[0]!;
    expect(places!.startsWith(`${top} ${n}`)).toBe(true);
  });

  it('folds the oldest commits by hash range when even one line per commit is over maxTokens', () => {
    const log = logs.find((f) => f.name === 'project-log-stat')!;
    const tight = testSqueeze({ recentResults: 0, targetTokens: 200, maxTokens: 800 });
    const result = tight.compress(log.text, { kind: 'gitlog' });
    expect(result.tokensOut).toBeLessThanOrEqual(800);
    expect(result.output).toMatch(/\[… lines \d+–\d+ \(\d+\): \d+ older commits, [0-9a-f]{10} … [0-9a-f]{10} …\]/);
    expect(result.output.split('\n').slice(0, 2).join('\n')).toMatch(/^commit [0-9a-f]{40}\n\[… lines 2–\d+ \(\d+\): /);
  });

  it('over maxTokens drops authors and dates before cutting subjects short, then folds the oldest commits', () => {
    // 60 commits with long bodies: every commit line and a subject each do not fit with their authors and dates.
    const text = Array.from({ length: 60 }, (_, i) =>
      [
        `commit ${(i + 1).toString(16).padStart(40, 'a')}`,
        `Author: Dana Developer ${i % 3} <dana${i % 3}@example.com>`,
        `Date:   Mon Mar ${(i % 27) + 1} 10:${String(i).padStart(2, '0')}:00 2025 +0000`,
        '',
        `    Fix the parser's handling of case ${i} in module m${i % 7}`,
        '',
        ...Array.from({ length: 12 }, (_, k) => `    Body line ${k} explaining change ${i} in detail.`),
        '',
      ].join('\n'),
    ).join('\n');
    const under = (maxTokens: number) =>
      testSqueeze({ recentResults: 0, targetTokens: 1000, maxTokens }).compress(text, { kind: 'gitlog' });
    const roomy = under(3000);
    const markers = roomy.output.split('\n').filter((l) => l.startsWith('[… lines'));
    expect(roomy.output.match(/^commit /gm)).toHaveLength(60);
    expect(markers).toHaveLength(60);
    for (const marker of markers) expect(marker).toMatch(/\(\d+\): "Fix the parser's handling/);
    expect(roomy.output).not.toContain('Dana Developer');
    const tight = under(1500);
    expect(tight.tokensOut).toBeLessThanOrEqual(1500);
    expect(tight.output).toMatch(/\d+ older commits, [0-9a-f]{10} … [0-9a-f]{10}/);
    const kept = tight.output.split('\n').filter((l) => /^\[… lines [\d,]+–[\d,]+ \(\d+\): "/.test(l));
    expect(kept.length).toBe((tight.output.match(/^commit /gm) ?? []).length);
  });

  it('sniffs default, --graph and --oneline --stat logs, and leaves a log with patches to the diff processor', () => {
    for (const f of logs) expect(gitlogProcessor.sniff(analysisOf(f.text)), f.name).toBeGreaterThanOrEqual(0.6);
    const routed = squeeze.compress(logs.find((f) => f.name === 'log')!.text, { level: 'light' });
    expect(routed.kind).toBe('gitlog');
  });
});

describeNeverLarger(gitlogProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
