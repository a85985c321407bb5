// The log processor on fixtures of real test-runner and compiler output: the
// evidence survives a tight budget, every cut is counted exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { backendName, analysisOf } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { extractiveViolation } from '../support/extractive.js';
import { logProcessor } from '../../src/processors/log/index.js';
import { runsAround, runsAroundSorted } from '../../src/processors/log/priority.js';
import { withoutTerminalCodes } from '../../src/text/ansi.js';

const squeeze = createSqueeze({
  backend: backendName,
  targetTokens: 800,
  maxTokens: 3000,
  level: 'light',
  store: null,
  retainOriginal: false,
});

describe(`log processor on runner and compiler output (${backendName})`, () => {
  it.each(fixtures('logs').map((f) => [f.name, f] as const))(
    '%s keeps its evidence under a tight budget',
    (_, fixture) => {
      const result = squeeze.compress(fixture.text, { toolName: 'bash', kind: 'log' });
      expect(result.outcome).toBe('compressed');
      expect(result.tokensOut).toBeLessThan(result.tokensIn);
      for (const needle of fixture.keep) expect(result.output).toContain(needle);
    },
  );

  it.each(fixtures('logs').map((f) => [f.name, f] as const))(
    '%s accounts for every line: shown in order, or inside a marker naming it',
    (_, fixture) => {
      const result = squeeze.compress(fixture.text, { toolName: 'bash', kind: 'log' });
      expect(result.output).not.toBe(fixture.text);
      expect(extractiveViolation(fixture.text, result.output)).toBeNull();
    },
  );

  it('keeps the last failure before a traced process exits, among hundreds of kinds of failed probes', () => {
    // Each probe's open flags differ (no two share a shape); the failing open's own flags come last.
    const FLAGS = ['O_WRONLY', 'O_NOFOLLOW', 'O_DIRECTORY', 'O_NONBLOCK', 'O_APPEND', 'O_CREAT', 'O_SYNC', 'O_PATH'];
    const probes = Array.from({ length: 255 }, (_, k) => {
      const flags = FLAGS.filter((_, b) => (k + 1) & (1 << b)).join('|');
      return `4100 openat(AT_FDCWD, "/usr/lib/python3/mod${k}.so", O_RDONLY|${flags}) = -1 ENOENT (No such file or directory)`;
    });
    const ok = Array.from(
      { length: 800 },
      (_, i) => `4100 mmap(NULL, ${4096 * (i + 1)}, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f${i}`,
    );
    const text = [
      ...ok.slice(0, 400),
      ...probes,
      ...ok.slice(400),
      '4100 openat(AT_FDCWD, "/etc/myapp/config.json", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
      '4100 write(2, "FileNotFoundError", 17) = 17',
      ...Array.from({ length: 8 }, (_, i) => `4100 munmap(0x7f50${i}000, 16384) = 0`),
      '4100 exit_group(1)                     = ?',
      '4100 +++ exited with 1 +++',
    ].join('\n');
    const tight = createSqueeze({
      backend: backendName,
      targetTokens: 800,
      maxTokens: 2000,
      store: null,
      retainOriginal: false,
    });
    const output = tight.compress(text, { command: 'strace -f python3 app.py' }).output;
    expect(output).toContain('openat(AT_FDCWD, "/etc/myapp/config.json", O_RDONLY|O_CLOEXEC) = -1 ENOENT');
    expect(extractiveViolation(text, output)).toBeNull();
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
    expect(result.output).toMatch(/\[… lines [\d,]+–[\d,]+ \([\d,]+\): [\d,]+ (INFO|DEBUG)/);
  });

  it('collapses consecutive identical lines with their exact count, losslessly', () => {
    const text = ['start', ...Array.from({ length: 1200 }, () => 'retrying connection to db:5432'), 'done'].join('\n');
    const result = createSqueeze({ backend: backendName, minTokens: 10, store: null, retainOriginal: false }).compress(
      text,
      { kind: 'log', level: 'lossless' },
    );
    expect(result.output).toBe('start\n[×1,200 lines 2–1,201] retrying connection to db:5432\ndone\n');
  });
});

/** Diagnostic blocks by each compiler's own layout: the message line, then its excerpt lines. */
/** Each diagnostic's lines as the pipeline shows them (without colour codes, src/pipeline/ansi.ts). */
function compilerBlocks(text: string): string[][] {
  const raw = text.split('\n').map(withoutTerminalCodes);
  const lines = raw.map((l) => l.replace(/\u001b\[[0-9;]*m/g, '').trimEnd());
  const blocks: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^(?:\S+:\d+:\d+: (?:error|warning)|error\[E\d+\]|\S+:\d+:\d+ - error TS\d+)/.test(lines[i]!)) continue;
    let end = i + 1;
    // gcc/rustc gutters and arrows; tsc's blank, numbered source line and underline.
    while (end < lines.length && /^\s*\d*\s+\||^\s*-->|^$|^\d+ |^\s+~+$/.test(lines[end]!)) end++;
    while (end > i + 1 && lines[end - 1] === '') end--;
    blocks.push(raw.slice(i, end));
  }
  return blocks;
}

describe(`log processor: compiler diagnostics whole or gone (${backendName})`, () => {
  const diagnostics = fixtures('logs').filter((f) =>
    ['gcc-diagnostics', 'gcc-many', 'rustc-diagnostics', 'tsc-pretty'].includes(f.name),
  );
  const tight = createSqueeze({
    backend: backendName,
    targetTokens: 300,
    maxTokens: 1500,
    recentResults: 0,
    store: null,
    retainOriginal: false,
  });
  it.each(diagnostics.flatMap((f) => (['light', 'aggressive'] as const).map((level) => [f.name, level, f] as const)))(
    '%s at %s',
    (_, level, fixture) => {
      const output = tight.compress(fixture.text, { kind: 'log', level }).output.split('\n');
      const blocks = compilerBlocks(fixture.text);
      expect(blocks.length).toBeGreaterThan(0);
      let whole = 0;
      for (const block of blocks) {
        // Headers repeat (rustc's `error[E0308]: mismatched types`): the location line tells them apart.
        const at = output.findIndex((line, i) => line === block[0] && output[i + 1] === block[1]);
        if (at === -1) {
          // Gone whole: not one of its numbered source lines is shown.
          for (const line of block.slice(1).filter((l) => /^\s*\d+\s*\||^\d+ |-->/.test(l)))
            expect(output, block[0]).not.toContain(line);
          continue;
        }
        expect(output.slice(at, at + block.length), block[0]).toEqual(block);
        whole++;
      }
      expect(whole).toBeGreaterThan(0);
    },
  );
});

describe(`log processor: shape summaries true of every value (${backendName})`, () => {
  it('summarises lines of more volatile fields than any kernel cap (dumps of 5,000 numbers) as a log', () => {
    const dump = (i: number) =>
      `DEBUG dump ${Array.from({ length: 5000 }, (_, k) => (k === 4999 ? i : k % 1000)).join(' ')}`;
    const lines = Array.from({ length: 120 }, (_, i) => (i % 3 === 0 ? dump(i) : `WARN retry ${i} of request abc`));
    const result = createSqueeze({ backend: backendName, store: null, retainOriginal: false }).compress(
      lines.join('\n'),
      { level: 'aggressive', maxTokens: 2000, targetTokens: 1000 },
    );
    expect(result.kind).toBe('log');
    expect(result.output).toMatch(/\[×\d+ of this shape/);
  });

  it('gives the minimum and maximum of every omitted number, past the first 256', () => {
    const rows = Array.from({ length: 4000 }, (_, i) => `row ${i + 1} processed in ${(i * 7919) % 9973} ms`);
    const text = [
      'start',
      ...rows.slice(0, 2000),
      'ERROR row 2001 failed: disk full',
      ...rows.slice(2000),
      'done',
    ].join('\n');
    const output = squeeze.compress(text, { kind: 'log', level: 'aggressive' }).output;
    const shown = new Set(output.split('\n'));
    const omitted = rows.filter((row) => !shown.has(row)).map((row) => row.match(/\d+/g)!.map(Number));
    const summary =
      /^\[×([\d,]+) of this shape in lines [\d,]+–[\d,]+; varying: ([\d,]+) values, min (\d+), max (\d+); ([\d,]+) values, min (\d+), max (\d+)\] row /m.exec(
        output,
      );
    expect(summary, output.slice(0, 400)).not.toBeNull();
    const [, k, , min1, max1, , min2, max2] = summary!;
    expect(Number(k!.replaceAll(',', ''))).toBe(omitted.length);
    for (const [field, min, max] of [
      [0, min1, max1],
      [1, min2, max2],
    ] as const) {
      const values = omitted.map((v) => v[field]!);
      expect(Number(min)).toBe(Math.min(...values));
      expect(Number(max)).toBe(Math.max(...values));
    }
  });

  it('names the first and last value in order for values that are not numbers', () => {
    const text = Array.from(
      { length: 3000 },
      (_, i) =>
        `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z INFO tick`,
    ).join('\n');
    const output = squeeze.compress(`${text}\n2026-11-30T11:00:00Z ERROR stop`, {
      kind: 'log',
      level: 'aggressive',
    }).output;
    expect(output).toMatch(/varying: [\d,]+ values, first 2026-11-30T10:\d\d:\d\d, last 2026-11-30T10:\d\d:\d\d/);
  });
});

describe('log processor sniffing', () => {
  it.each(fixtures('logs').map((f) => [f.name, f.text] as const))(
    'claims the real runner and compiler output %s',
    (_, text) => {
      expect(logProcessor.sniff(analysisOf(text))).toBeGreaterThan(0.5);
    },
  );

  it('leaves prose, source code and listings to others', () => {
    const prose = Array.from(
      { length: 40 },
      (_, i) => `Paragraph ${i} explains why the team chose this design and what it costs.`,
    ).join('\n');
    const code = Array.from(
      { length: 60 },
      (_, i) => `export function step${i}(input: number): number {\n  return input * ${i} + 1;\n}`,
    ).join('\n');
    const read = code
      .split('\n')
      .map((line, i) => `${i + 1}: ${line}`)
      .join('\n');
    const listing = Array.from(
      { length: 50 },
      (_, i) => `-rw-r--r-- 1 dev dev ${1000 + i} Dec  1 15:18 file${i}.ts`,
    ).join('\n');
    for (const text of [prose, code, read, listing, '']) expect(logProcessor.sniff(analysisOf(text))).toBeLessThan(0.5);
  });
});

describeNeverLarger(logProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });

describe('the runs of a span around its kept lines', () => {
  it('are the same read from a set or from the kept lines in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: -1, max: 60 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 70 }), { maxLength: 30 }),
        (from, to, kept) => {
          const sorted = [...kept].sort((a, b) => a - b);
          expect(runsAroundSorted(from, to, sorted)).toEqual(runsAround(from, to, new Set(kept)));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
