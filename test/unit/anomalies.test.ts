// What is unusual in a text stays inline at the defaults, whatever tool printed
// it: fixtures from real tools (strace, sqlite3, psql, column) and realistic
// synthetic ones (a service journal, kubectl pods as JSON), made by
// scripts/anomaly-fixtures.mjs, each naming the lines that stand out only by
// being rare there.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Anomaly, Column, LineFlag, Severity, TextAnalysis, rareCells, severityOf } from '../../src/engine/index.js';
import { fieldNumber } from '../../src/engine/anomaly.js';
import { idMasked } from '../../src/engine/twin/ids.js';
import { numberOf } from '../../src/engine/fields.js';
import { isWhiteSpace } from '../../src/text/strings.js';
import { backendName, testBackend } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';
import { testSqueeze } from '../support/processor-run.js';

const sniffed = fixtures('anomalies');
/** The query tables among the table fixtures (the others have rules of their own to keep rows). */
const queries = fixtures('table').filter((f) => /^(?:sqlite|psql|column)-/.test(f.name));

describe(`unusual lines, rows and records at the defaults (${backendName})`, () => {
  it.each(sniffed.map((f) => [f.name, f] as const))('%s keeps what stands out, compressed', (_, fixture) => {
    const result = testSqueeze().compress(fixture.text, { toolName: 'bash' });
    expect(result.tokensOut).toBeLessThan(result.tokensIn);
    for (const needle of fixture.keep) expect(result.output).toContain(needle);
  });

  it.each(queries.map((f) => [f.name, f] as const))(
    '%s keeps its anomalous rows whole under the header',
    (_, fixture) => {
      const result = testSqueeze().compress(fixture.text, { toolName: 'bash', kind: 'table' });
      expect(result.tokensOut).toBeLessThan(result.tokensIn);
      const header = fixture.text.split('\n').find((l) => l.trim() !== '' && !/^[-+\s\u2500-\u257f]+$/.test(l))!;
      expect(result.output).toContain(header);
      for (const needle of fixture.keep) expect(result.output.split('\n')).toContain(needle);
    },
  );

  it('sqlite3 -json: routed as the JSON document it is, not a table; records that stand out shown as printed', () => {
    const fixture = sniffed.find((f) => f.name === 'sqlite-json-orders')!;
    const result = testSqueeze().compress(fixture.text, {
      toolName: 'bash',
      command: "sqlite3 -json orders.db 'SELECT id, email, status, amount, price FROM orders ORDER BY id;'",
    });
    expect(result.kind).toBe('json');
    expect(result.tokensOut).toBeLessThan(result.tokensIn / 3);
    const shown = result.output.split('\n').map((l) => l.trim().replace(/,$/, ''));
    for (const record of fixture.keep) expect(shown).toContain(record);
  });

  it('journal: at light, every line whose shape occurs at most twice is inline while the output fits', () => {
    const fixture = sniffed.find((f) => f.name === 'journal-oom-kill')!;
    const result = testSqueeze({ level: 'light' }).compress(fixture.text, { toolName: 'bash' });
    expect(result.tokensOut).toBeLessThan(result.tokensIn);
    const analysis = new TextAnalysis(fixture.text, testBackend());
    const shown = new Set(result.output.split('\n'));
    let rare = 0;
    for (let i = 0; i < analysis.lines.count; i++) {
      if (analysis.templates.size[i]! > 2) continue;
      rare++;
      expect(shown.has(analysis.line(i)), analysis.line(i)).toBe(true);
    }
    expect(rare).toBeGreaterThan(5);
  });

  it('journal of the anomaly corpus: at light, every warning and kill line is inline (evidence rare in the log)', () => {
    const text = readFileSync(resolve(import.meta.dirname, '../corpus/anomaly/journal/journal-oom-kill.txt'), 'utf8');
    const result = testSqueeze({ level: 'light' }).compress(text, {
      toolName: 'bash',
      command: 'journalctl -u shop-worker',
    });
    expect(result.tokensOut).toBeLessThan(result.tokensIn / 4);
    const analysis = new TextAnalysis(text, testBackend());
    const shown = new Set(result.output.split('\n'));
    let evidence = 0;
    for (let i = 0; i < analysis.lines.count; i++) {
      const flags = analysis.classes.flags[i]!;
      if (severityOf(flags) < Severity.Warn && !(flags & LineFlag.Outcome)) continue;
      evidence++;
      expect(shown.has(analysis.line(i)), analysis.line(i)).toBe(true);
    }
    expect(evidence).toBeGreaterThan(30);
  });

  it('dmesg of the anomaly corpus: lines naming generated interfaces are one shape, the lines seen once among them rare and inline', () => {
    const dir = resolve(import.meta.dirname, '../corpus/anomaly/journal');
    const text = readFileSync(resolve(dir, 'dmesg.txt'), 'utf8');
    const { needles } = JSON.parse(readFileSync(resolve(dir, 'dmesg.needles.json'), 'utf8')) as { needles: string[] };
    const analysis = new TextAnalysis(text, testBackend());
    const lines = text.split('\n');
    // Random `veth…` names give most lines a template of their own: the templates alone see no repetition.
    expect(analysis.templates.distinct).toBeGreaterThan(0.3 * analysis.lines.count);
    for (const needle of needles) {
      expect(analysis.anomalies.reasons[lines.indexOf(needle)]! & Anomaly.RareShape, needle).not.toBe(0);
    }
    const generated = lines.filter((line) => /\bveth\w+/.test(line));
    const rareGenerated = generated.filter(
      (line) => analysis.anomalies.reasons[lines.indexOf(line)]! & Anomaly.RareShape,
    );
    expect(generated.length).toBeGreaterThan(500);
    expect(rareGenerated.length).toBeLessThan(generated.length / 20);
    const result = testSqueeze().compress(text, { toolName: 'bash', command: 'dmesg' });
    expect(result.tokensOut).toBeLessThan(result.tokensIn / 10);
    for (const needle of needles) expect(result.output).toContain(needle);
  });

  it('strace: the failing call is an outcome among hundreds of probes, and ranks above them', () => {
    const fixture = sniffed.find((f) => f.name === 'strace-missing-config')!;
    const analysis = new TextAnalysis(fixture.text, testBackend());
    const failing = analysis.text.split('\n').indexOf(fixture.keep[0]!);
    const ranked = Array.from(analysis.anomalies.ranked);
    const probes = ranked.filter((i) => analysis.line(i).includes('= -1 E')).length;
    expect(probes).toBeGreaterThan(20);
    expect(ranked.indexOf(failing)).toBeGreaterThanOrEqual(0);
    expect(ranked.indexOf(failing)).toBeLessThan(probes / 2);
  });
});

describe('field rarity per column', () => {
  const amounts = Array.from({ length: 200 }, (_, i) => (20 + ((i * 37) % 380)).toFixed(2));

  it('finds a number far outside the bulk, a negative among positives, an empty cell in a filled column', () => {
    const column = [...amounts];
    column[137] = '998877.66';
    column[61] = '-4.50';
    expect(rareCells(new Column(column))).toEqual([61, 137]);
    const emails = amounts.map((_, i) => `customer${i}@example.com`);
    emails[88] = '';
    expect(rareCells(new Column(emails))).toEqual([88]);
  });

  it('finds a value few rows have where one value holds most, and a key few records lack', () => {
    const status = amounts.map((_, i) => (i % 50 === 7 ? 'CrashLoopBackOff' : 'Running'));
    expect(rareCells(new Column(status))).toEqual([7, 57, 107, 157]);
    const started = amounts.map((_, i) =>
      i === 3 ? undefined : `2026-12-01T00:${String(i % 60).padStart(2, '0')}:00Z`,
    );
    expect(rareCells(new Column(started))).toEqual([3]);
  });

  it('finds the few numbers that differ where nearly every row holds the same one (HTTP 500 among 200s)', () => {
    const codes = amounts.map((_, i) => (i === 42 ? '500' : i === 170 ? '504' : '200'));
    expect(rareCells(new Column(codes))).toEqual([42, 170]);
    const zeros = amounts.map((_, i) => (i === 9 ? '3' : '0'));
    expect(rareCells(new Column(zeros))).toEqual([9]);
    const timings = amounts.map((a, i) => (i === 77 ? '0' : `${a}5`));
    expect(rareCells(new Column(timings))).toEqual([77]);
    // A fifth of the rows differing is a distribution, not an anomaly.
    expect(rareCells(new Column(amounts.map((_, i) => (i % 5 === 0 ? '304' : '200'))))).toEqual([]);
  });

  it('finds a far integer among integer measurements that repeat (a duration in ms), not among identifiers', () => {
    const durations = amounts.map((_, i) => String(800 + ((i * 53) % 150) * 4));
    durations[42] = '987654';
    expect(rareCells(new Column(durations))).toEqual([42]);
    // Every value distinct: an identifier column, whatever its extremes.
    const ids = amounts.map((_, i) => String(800 + i));
    ids[42] = '987654';
    expect(rareCells(new Column(ids))).toEqual([]);
  });

  it('leaves identifiers, heavy tails and small columns alone', () => {
    expect(rareCells(new Column(amounts.map((_, i) => String(i < 5 ? i : 1000 + i))))).toEqual([]);
    expect(rareCells(new Column(amounts.map((_, i) => String(2 ** (i % 20)))))).toEqual([]);
    expect(rareCells(new Column(['1', '2', '3', '998877']))).toEqual([]);
  });
});

describe('reading fields by char code', () => {
  it('numberOf reads what the number pattern it replaced reads, with the same value and unit', () => {
    const pattern = /^([-+]?\d[\d,]*(?:\.\d+)?)([A-Za-z%]{0,3})$/;
    const byPattern = (cell: string) => {
      const m = pattern.exec(cell);
      if (!m) return null;
      const value = Number(m[1]!.replaceAll(',', ''));
      return Number.isFinite(value) ? { value, unit: m[2]! } : null;
    };
    const unit = fc.constantFrom('0', '1', '7', '9', ',', '.', '-', '+', 'k', 'B', 'ms', '%', 'x', ' ', 'é', 'Z');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
        const cell = parts.join('');
        expect(numberOf(cell)).toEqual(byPattern(cell));
      }),
      { numRuns: 3000 },
    );
    for (const cell of ['1,024', '-0', '+5', '3.5%', '12ms', '1.', '.5', '1e5', '9'.repeat(400), '1.5.3', '10kBps'])
      expect(numberOf(cell), cell).toEqual(byPattern(cell));
  });

  it("a field's number is the number of its value, its key and wrapping left out, as the patterns it replaced read it", () => {
    const byPatterns = (token: string) =>
      numberOf(
        token
          .replace(/^[A-Za-z_][\w.-]*[=:]/, '')
          .replace(/^["'([{]+|["',;)\]}]+$/g, '')
          .trim(),
      );
    const unit = fc.constantFrom(
      'a',
      'Z',
      '_',
      '.',
      '-',
      '=',
      ':',
      '1',
      '0',
      '"',
      "'",
      '(',
      '[',
      '{',
      ')',
      ']',
      '}',
      ',',
      ';',
      '%',
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), fc.string({ maxLength: 3 }), (parts, around) => {
        const token = parts.join('');
        const text = `${around}${token}${around}`;
        expect(fieldNumber(text, around.length, around.length + token.length)).toEqual(byPatterns(token));
      }),
      { numRuns: 5000 },
    );
  });

  it('a line with generated ids and numbers masked is what the patterns it replaced make of it', () => {
    const generated = /\b(?:(?=[A-Za-z_]*\d)(?=\d*[A-Za-z_])[A-Za-z\d_]+|(?=[a-z]*[b-df-hj-np-tv-xz]{4})[a-z]{8,})\b/g;
    const byPatterns = (line: string) => line.replace(generated, '@').replace(/\d+/g, '#');
    const unit = fc.constantFrom(
      'a',
      'e',
      'y',
      'b',
      'c',
      'd',
      'k',
      'x',
      'z',
      'Q',
      '_',
      '1',
      '0',
      ' ',
      '.',
      '-',
      'é',
      '@',
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), fc.string({ maxLength: 3 }), (parts, around) => {
        const line = parts.join('');
        expect(idMasked(`${around}${line}${around}`, around.length, around.length + line.length)).toBe(
          byPatterns(line),
        );
      }),
      { numRuns: 5000 },
    );
    const lines = ['veth0 vethqgtfn62 sdb1 0x80700 vethxtnkpvx strength rhythms', 'INFO: task blocked for 120 s'];
    for (const line of lines) expect(idMasked(line, 0, line.length)).toBe(byPatterns(line));
  });

  it('isWhiteSpace is \\s for every UTF-16 unit', () => {
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isWhiteSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });
});
