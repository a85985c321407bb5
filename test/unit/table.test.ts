// The table processor on process, pod, container, disk, package tables and
// CSV/TSV. pip list is real (its head); the others are written in the exact
// shape of the real commands (their real output would leak machine details
// or needs a cluster), bulk rows as @@repeat.
import { describe, expect, it } from 'vitest';
import { createEstimator } from '../../src/engine/index.js';
import { ProcessorError } from '../../src/processors/errors.js';
import { tableProcessor } from '../../src/processors/table/index.js';
import { backendName, analysisOf } from '../support/backend.js';
import { type ProcessorLevel, runProcessor, testSqueeze } from '../support/processor-run.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { extractiveViolation } from '../support/extractive.js';

const squeeze = testSqueeze({ targetTokens: 600, maxTokens: 3000, minTokens: 1, level: 'light' });
const estimator = createEstimator({ backend: backendName });
const all = fixtures('table');

const run = (text: string, level: ProcessorLevel, budget: number, maxTokens: number, preserve: string[] = []) =>
  runProcessor(tableProcessor, text, { level, budget, maxTokens, estimator, preserve });

const MARKER = /^\[… .* …\]$/;
/** A rule between rows or a box border (psql, sqlite3 -column and -box). */
const RULE = /^[-=+|\s\u2500-\u257f]+$/;

/** Rows the markers count: `[… lines 6–123 (118): 118 rows: …]`. */
function countedRows(output: string): number {
  return output
    .split('\n')
    .map((l) => /^\[… lines? [\d,–]+(?: \([\d,]+\))?: ([\d,]+) rows?/.exec(l))
    .reduce((a, m) => a + (m ? Number(m[1]!.replaceAll(',', '')) : 0), 0);
}

describe(`table processor on ps, kubectl, docker, df, npm, pip, CSV and TSV tables (${backendName})`, () => {
  it.each(all.map((f) => [f.name, f] as const))(
    '%s keeps its header and outliers under a tight budget',
    (_, fixture) => {
      const result = squeeze.compress(fixture.text, { toolName: 'bash', kind: 'table' });
      expect(result.outcome).toBe('compressed');
      expect(result.kind).toBe('table');
      expect(result.tokensOut).toBeLessThan(result.tokensIn);
      expect(result.output.split('\n')[0]).toBe(fixture.text.split('\n')[0]);
      for (const needle of fixture.keep) expect(result.output).toContain(needle);
    },
  );

  it.each(all.map((f) => [f.name, f] as const))(
    '%s: shown lines are original lines in order; every row shown or counted',
    (_, fixture) => {
      const original = fixture.text.split('\n');
      const header = original.findIndex((l) => l.trim() !== '' && !RULE.test(l));
      const rows = original.slice(header + 1).filter((l) => l.trim() !== '' && !RULE.test(l)).length;
      for (const [budget, level] of [
        [600, 'light'],
        [150, 'aggressive'],
        [40, 'aggressive'],
      ] as const) {
        const out = run(fixture.text, level, budget, 4 * budget);
        let at = 0;
        let shown = 0;
        for (const line of out.text.split('\n')) {
          if (MARKER.test(line)) continue;
          const found = original.indexOf(line, at);
          expect(found, line).toBeGreaterThanOrEqual(at);
          at = found + 1;
          if (found > header && line.trim() !== '' && !RULE.test(line)) shown++;
        }
        expect(shown + countedRows(out.text), `budget ${budget}`).toBe(rows);
        expect(extractiveViolation(fixture.text, out.text), `budget ${budget}`).toBeNull();
      }
    },
  );

  it.each(all.map((f) => [f.name, f] as const))('%s never exceeds maxTokens at any level', (_, fixture) => {
    for (const level of ['lossless', 'light', 'aggressive'] as const) {
      for (const maxTokens of [3000, 200, 50]) {
        const out = run(fixture.text, level, Math.floor(maxTokens / 3), maxTokens);
        expect(estimator.estimate(out.text), `${level} ${maxTokens}`).toBeLessThanOrEqual(maxTokens);
      }
    }
  });

  it('lossless keeps the text byte-identical when it fits under maxTokens', () => {
    for (const fixture of all) expect(run(fixture.text, 'lossless', 100, 100_000).text).toBe(fixture.text);
  });

  it('groups rows by their status column with exact counts', () => {
    const fixture = all.find((f) => f.name === 'kubectl-pods')!;
    const out = run(fixture.text, 'aggressive', 300, 3000).text;
    expect(out).toMatch(/\[… lines \d+–\d+ \(\d+\): 1\d\d rows: 1\d\d STATUS=Running …\]/);
    expect(out).toContain('CrashLoopBackOff');
    expect(out).toContain('OOMKilled');
  });

  it('keeps preserved rows and refuses text that is no table', () => {
    const fixture = all.find((f) => f.name === 'orders')!;
    expect(run(fixture.text, 'aggressive', 100, 400, ['177,cust_0042']).text).toContain(
      '177,cust_0042,DE,paid,49.90,EUR,2026-11-04T10:00:00Z',
    );
    expect(() => run('', 'light', 100, 300)).toThrow(ProcessorError);
    expect(() => run('one line only', 'light', 100, 300)).toThrow(ProcessorError);
  });

  it('sniffs tables, not logs, listings or prose', () => {
    for (const fixture of all)
      expect(tableProcessor.sniff(analysisOf(fixture.text)), fixture.name).toBeGreaterThan(0.8);
    expect(tableProcessor.sniff(analysisOf('This is a sentence.\nAnother one here.\nAnd a third.'))).toBeLessThan(0.5);
    const log = Array.from({ length: 30 }, (_, i) => `2026-11-30 10:00:${i} INFO worker: tick ${i}`).join('\n');
    expect(tableProcessor.sniff(analysisOf(log))).toBeLessThan(0.5);
    expect(tableProcessor.sniff(analysisOf('./src/a.ts\n./src/b.ts\n./src/c.ts\n./lib/d.js'))).toBeLessThan(0.5);
  });
});

describeNeverLarger(tableProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
