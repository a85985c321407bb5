// The code processor on real `read` tool outputs and `cat` output (see
// scripts/code-diff-fixtures.ts): lossless and light pass a read within the
// read tool's window through unchanged, aggressive gives outlines whose shown
// lines are original lines (and light does for `cat`).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSqueeze } from '../../src/pipeline/index.js';
import { codeProcessor } from '../../src/processors/code/index.js';
import { backendName, analysisOf } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { extractiveViolation } from '../support/extractive.js';

const options = { backend: backendName, store: null, retainOriginal: false, recentResults: 0, minTokens: 50 } as const;
const squeeze = createSqueeze(options);
const reads = fixtures('code');
const cases = reads.map((f) => [f.name, f] as const);

describe(`code processor on source reads (${backendName})`, () => {
  it.each(cases)('%s: lossless returns the read unchanged', (_, fixture) => {
    const result = squeeze.compress(fixture.text, { toolName: 'read', level: 'lossless' });
    expect(result.output).toBe(fixture.text);
  });

  it.each(cases)('%s: aggressive outlines it, every declaration kept, every shown line original', (_, fixture) => {
    const result = squeeze.compress(fixture.text, { toolName: 'read', level: 'aggressive' });
    expect(result.kind).toBe('code');
    expect(result.outcome).toBe('compressed');
    for (const needle of fixture.keep) expect(result.output).toContain(needle);
    expect(extractiveViolation(fixture.text, result.output)).toBeNull();
  });

  it.each(cases.filter(([, f]) => f.text.startsWith('<path>')))(
    '%s: a read within the read window passes whole at lossless and light, even over maxTokens',
    (_, fixture) => {
      const tight = createSqueeze({ ...options, targetTokens: 100, maxTokens: 200 });
      for (const level of ['lossless', 'light'] as const) {
        const result = tight.compress(fixture.text, { toolName: 'read', level });
        expect(result.outcome, level).toBe('asked-for');
        expect(result.output).toBe(fixture.text);
      }
      expect(tight.compress(fixture.text, { toolName: 'read', level: 'aggressive' }).outcome).toBe('compressed');
    },
  );

  it('sniffs plain source, and not logs, diffs or git logs', () => {
    expect(codeProcessor.sniff(analysisOf(reads.find((f) => f.name === 'cat-ringbuf-c')!.text))).toBeGreaterThanOrEqual(
      0.5,
    );
    for (const f of [...fixtures('logs'), ...fixtures('diff'), ...fixtures('gitlog')])
      expect(codeProcessor.sniff(analysisOf(f.text)), f.name).toBe(0);
  });

  it('routes a read by its envelope without the tool name', () => {
    const read = reads.find((f) => f.name === 'read-inventory-py')!;
    expect(squeeze.compress(read.text, { level: 'light' }).kind).toBe('code');
  });

  it('folds a body into one marker naming its lines and the read that shows them', () => {
    const read = reads.find((f) => f.name === 'read-inventory-py')!;
    const output = squeeze.compress(read.text, { toolName: 'read', level: 'aggressive' }).output;
    const marker = output.split('\n').find((l) => l.includes('body of adjust'))!;
    const [, from, to, n, offset, limit] =
      /^\[… lines (\d+)–(\d+) \((\d+)\): body of adjust — read offset=(\d+) limit=(\d+) …\]$/.exec(marker)!;
    expect(Number(to) - Number(from) + 1).toBe(Number(n));
    // The marker names the tool output's lines (after the 3 envelope lines), the read hint the file's.
    expect([Number(offset) + 3, Number(limit)]).toEqual([Number(from), Number(n)]);
    // The signature stays right above it.
    const above = output.split('\n')[output.split('\n').indexOf(marker) - 1];
    expect(above).toBe('93:     def adjust(self, sku: str, delta: int, reason: str = "") -> int:');
  });

  it('cuts a minified line to a window inside a marker saying how much went', () => {
    const read = reads.find((f) => f.name === 'read-minified-js')!;
    const output = squeeze.compress(read.text, { toolName: 'read', level: 'aggressive' }).output;
    expect(output).toMatch(/^1: .{160}\[… [\d,]+ chars cut …\]$/m);
  });

  it('outlines `cat` output by its own line positions, without a read hint', () => {
    const cat = reads.find((f) => f.name === 'cat-ringbuf-c')!;
    const output = squeeze.compress(cat.text, { level: 'light', kind: 'code' }).output;
    expect(output).toMatch(/^\[… lines \d+–\d+ \(\d+\): body of ringbuf_write …\]$/m);
    expect(output).not.toContain('read offset=');
  });

  it('outlines the members of a named body around most of a file too long for one read (a bundle in one closure)', () => {
    const members = Array.from({ length: 300 }, (_, k) => [
      `function helper${k}(input) {`,
      ...Array.from({ length: 6 }, (_, i) => `  input = input * ${k + i} + ${i};`),
      '  return input;',
      '}',
    ]).flat();
    const text = ['var lib = {}; ((module) => {', '"use strict";', ...members, '})(lib);', ''].join('\n');
    const output = squeeze.compress(text, { level: 'light', kind: 'code' }).output;
    for (const k of [0, 150, 299]) expect(output).toContain(`function helper${k}(input) {`);
    expect(output).toMatch(/^\[… lines [\d,]+–[\d,]+ \(\d+\): body of helper150 …\]$/m);
    expect(extractiveViolation(text, output)).toBeNull();
  });

  it('git blame is a file read: whole up to maxTokens, past it outlined with each shown line as blame printed it', () => {
    const blame = readFileSync(resolve(import.meta.dirname, '../corpus/everyday/git/git-blame-cart.txt'), 'utf8');
    const hints = { toolName: 'bash', command: 'git blame src/cart.ts' };
    const whole = createSqueeze({ ...options, targetTokens: 1000 }).compress(blame, hints);
    expect(whole.kind).toBe('code');
    expect(whole.tokensIn).toBeGreaterThan(1000);
    expect(whole.output).toBe(blame);
    const over = createSqueeze({ ...options, targetTokens: 1000, maxTokens: 3000 }).compress(blame, hints);
    expect(over.outcome).toBe('compressed');
    expect(over.tokensOut).toBeLessThanOrEqual(3000);
    expect(over.output).toMatch(/^\[… lines \d+–\d+ \(\d+\): body of splitDiscount0 …\]$/m);
    // The scanner reads the file's lines without their blame prefixes: no block is named after a hash.
    expect(over.output).not.toMatch(/body of [0-9a-f]{5,} /);
    expect(extractiveViolation(blame, over.output)).toBeNull();
    // git annotate prints the same with tabs: `9494a32a\t(Dana Kowalski\t2025-03-06 21:12:00 +0000\t12)code`.
    const annotate = blame.replace(
      /^(\^?[0-9a-f]+) \((.*?) +(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}) +(\d+)\) /gm,
      '$1\t($2\t$3\t$4)',
    );
    expect(annotate).not.toBe(blame);
    const annotated = createSqueeze(options).compress(annotate, {
      toolName: 'bash',
      command: 'git annotate src/cart.ts',
    });
    expect(annotated.kind).toBe('code');
    expect(annotated.output).toBe(annotate);
  });

  it('keeps a read whole past maxTokens by default, outlines it under context pressure', () => {
    const read = reads.find((f) => f.name === 'read-pipeline-ts')!;
    const tight = createSqueeze({ ...options, targetTokens: 500, maxTokens: 2500 });
    const whole = tight.compress(read.text, { toolName: 'read' });
    expect(whole.tokensIn).toBeGreaterThan(2500);
    expect(whole.output).toBe(read.text);
    for (const contextFill of [0.85, 0.95]) {
      const pressed = tight.compress(read.text, { toolName: 'read', contextFill });
      if (contextFill < 0.9) expect(pressed.output).toBe(read.text);
      else {
        expect(pressed.level).toBe('aggressive');
        expect(pressed.tokensOut).toBeLessThanOrEqual(2500);
      }
    }
  });

  it('reads a read saved with a final line break after </content> as the read it is', () => {
    const read = reads.find((f) => f.name === 'read-pipeline-ts')!;
    const saved = `${read.text}\n`;
    const tight = createSqueeze({ ...options, targetTokens: 500, maxTokens: 2500 });
    expect(tight.compress(saved, { toolName: 'read' }).output).toBe(saved);
    const pressed = tight.compress(saved, { toolName: 'read', contextFill: 0.95 }).output;
    expect(pressed).toMatch(/^\[… lines [\d,]+–[\d,]+ \(\d+\): body of .* — read offset=\d+ limit=\d+ …\]$/m);
    expect(pressed.endsWith('</content>\n')).toBe(true);
  });

  it('keeps a preserved line inside a body it folds', () => {
    const text = [
      '<path>/w/a.ts</path>',
      '<type>file</type>',
      '<content>',
      '1: export function run(): void {',
      ...Array.from({ length: 30 }, (_, i) => `${i + 2}:   step(${i});`),
      '32:   // pinned: CVE-2024-3094 is fixed from 5.6.2 on',
      ...Array.from({ length: 30 }, (_, i) => `${i + 33}:   step(${i + 30});`),
      '63: }',
      '',
      '(End of file - total 63 lines)',
      '</content>',
    ].join('\n');
    const output = squeeze.compress(text, { toolName: 'read', level: 'aggressive' }).output;
    expect(output).toContain('32:   // pinned: CVE-2024-3094 is fixed from 5.6.2 on');
    expect(output).toContain('[… lines 5–34 (30): body of run — read offset=2 limit=30 …]');
  });

  it('keeps every line of multi-line import lists', () => {
    const source = [
      'import {',
      '  alpha,',
      '  beta,',
      '  gamma,',
      "} from './letters.js';",
      'use std::{',
      '    fmt,',
      '    io,',
      '    iter,',
      '};',
      'export function letters(): string[] {',
      ...Array.from({ length: 12 }, (_, i) => `  step(${i});`),
      '  return [alpha, beta, gamma];',
      '}',
    ];
    const text = [
      '<path>/w/a.ts</path>',
      '<type>file</type>',
      '<content>',
      ...source.map((l, i) => `${i + 1}: ${l}`),
      '',
      `(End of file - total ${source.length} lines)`,
      '</content>',
    ].join('\n');
    const output = squeeze.compress(text, { toolName: 'read', level: 'aggressive', minTokens: 1 }).output;
    for (const [i, line] of source.slice(0, 11).entries()) expect(output).toContain(`${i + 1}: ${line}`);
    expect(output).toContain('[… lines 15–27 (13): body of letters — read offset=12 limit=13 …]');
  });

  it('keeps a read of a big log under maxTokens with its head and tail, not folding after stray brackets', () => {
    const lines = Array.from(
      { length: 1500 },
      (_, i) =>
        `${i + 1}: 2026-11-30T10:${String(i % 60).padStart(2, '0')}:00Z worker[${i % 7}] job {id=${i}} step ${i % 13} done`,
    );
    const text = [
      '<path>/w/worker.log</path>',
      '<type>file</type>',
      '<content>',
      ...lines,
      '',
      '(End of file - total 1500 lines)',
      '</content>',
    ].join('\n');
    const result = createSqueeze({ ...options, targetTokens: 1000, maxTokens: 3000 }).compress(text, {
      toolName: 'read',
    });
    expect(result.kind).toBe('code');
    expect(result.tokensOut).toBeLessThanOrEqual(3000);
    expect(result.output).toContain(lines[0]);
    expect(result.output).toContain(lines.at(-1));
    expect(result.output).toMatch(
      /^\[… lines [\d,]+–[\d,]+ \([\d,]+\): cut to fit the size limit — read offset=\d+ limit=\d+ …\]$/m,
    );
    expect(extractiveViolation(text, result.output)).toBeNull();
  });
});

describeNeverLarger(codeProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
