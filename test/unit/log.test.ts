// The log processor on fixtures of real test-runner and compiler output: the
// evidence survives a tight budget, every cut is counted exactly.
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { backendName } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { logProcessor } from '../../src/processors/log.js';

const squeeze = createSqueeze({ backend: backendName, targetTokens: 800, maxTokens: 3000, level: 'light', store: null, retainOriginal: false });

/** Lines the output accounts for: shown lines plus the counts in omission and repeat markers. */
function accountedLines(output: string): number {
  let lines = 0;
  for (const line of output.split('\n')) {
    const omitted = /^\[… ([\d,]+) lines? omitted/.exec(line);
    const repeated = /^\[×([\d,]+)\] /.exec(line);
    if (omitted) lines += Number(omitted[1]!.replaceAll(',', ''));
    else if (repeated) lines += Number(repeated[1]!.replaceAll(',', ''));
    else lines++;
  }
  return lines;
}

describe(`log processor on runner and compiler output (${backendName})`, () => {
  it.each(fixtures('logs').map((f) => [f.name, f] as const))('%s keeps its evidence under a tight budget', (_, fixture) => {
    const result = squeeze.compress(fixture.text, { toolName: 'bash', kind: 'log' });
    expect(result.outcome).toBe('compressed');
    expect(result.tokensOut).toBeLessThan(result.tokensIn);
    for (const needle of fixture.keep) expect(result.output).toContain(needle);
  });

  it.each(fixtures('logs').map((f) => [f.name, f] as const))('%s accounts for every line (shown + counted)', (_, fixture) => {
    const result = squeeze.compress(fixture.text, { toolName: 'bash', kind: 'log' });
    const body = result.output.split('\n').filter((l) => !l.startsWith('[×') || !l.includes('omitted of this shape'));
    const header = body[0]?.startsWith('[') && body[0].includes(' shown; ') ? 1 : 0;
    const text = body.slice(header).join('\n').replace(/^\n/, '');
    const lines = fixture.text.endsWith('\n') ? fixture.text.split('\n').length - 1 : fixture.text.split('\n').length;
    expect(accountedLines(text)).toBe(lines);
  });

  it('names what it omitted by severity with exact counts', () => {
    const text = [
      ...Array.from({ length: 500 }, (_, i) => `2026-11-30 10:00:${i % 60} INFO  worker: tick ${i}`),
      '2026-11-30 10:09:00 ERROR worker: disk full on /var/lib/data',
      ...Array.from({ length: 500 }, (_, i) => `2026-11-30 10:10:${i % 60} DEBUG worker: idle ${i}`),
    ].join('\n');
    const result = squeeze.compress(text, { kind: 'log' });
    expect(result.output).toContain('ERROR worker: disk full on /var/lib/data');
    expect(result.omitted['INFO lines']! + result.omitted['DEBUG lines']!).toBeGreaterThan(900);
    expect(result.output).toMatch(/\[… [\d,]+ lines omitted: [\d,]+ (INFO|DEBUG)/);
  });

  it('collapses consecutive identical lines with their exact count, losslessly', () => {
    const text = ['start', ...Array.from({ length: 1200 }, () => 'retrying connection to db:5432'), 'done'].join('\n');
    const result = createSqueeze({ backend: backendName, minTokens: 10, store: null, retainOriginal: false }).compress(text, { kind: 'log', level: 'lossless' });
    expect(result.output).toBe('start\n[×1,200] retrying connection to db:5432\ndone');
  });
});

describeNeverLarger(logProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
