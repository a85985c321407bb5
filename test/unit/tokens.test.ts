import { describe, expect, it } from 'vitest';
import { createEstimator, TextAnalysis, tokenProfile } from '../../src/engine/index.js';
import { COST } from '../../src/engine/contract.js';
import type { TokenEstimator } from '../../src/types.js';
import { backendName, testBackend } from '../support/backend.js';

const backend = testBackend();
const deepseek = createEstimator({ backend });
const o200k = createEstimator({ profile: 'o200k', backend });
const estimate = (text: string) => deepseek.estimate(text);

/** Tokens per character of `unit` repeated, for comparing classes. */
const density = (unit: string, times = 200) => estimate(unit.repeat(times)) / (unit.length * times);

describe(`token estimator (${backendName})`, () => {
  it('implements the TokenEstimator interface and answers on the chosen backend', () => {
    const estimator: TokenEstimator = deepseek;
    expect(estimator.estimate('hello world')).toBeGreaterThan(0);
    expect(deepseek.backendName).toBe(backendName);
  });

  it('costs nothing for nothing and something for anything else', () => {
    expect(estimate('')).toBe(0);
    for (const text of ['a', ' ', '\n', '\u0000', '.', '7', '中', '😀', '\ud800'])
      expect(estimate(text)).toBeGreaterThan(0);
  });

  it('counts CJK denser than ASCII words, and kana and hangul as dense scripts', () => {
    expect(density('中文字')).toBeGreaterThan(2 * density('word '));
    expect(density('かな')).toBeGreaterThan(2 * density('word '));
    expect(density('한국어')).toBeGreaterThan(2 * density('word '));
    expect(density('Привет ')).toBeGreaterThan(density('hello '));
  });

  it('groups digits by three', () => {
    const costs = tokenProfile().costs;
    // 1000 copies of a number and a space: each extra group adds DIGIT_GROUP milli-tokens per copy.
    const groups = (digits: string) => estimate(`${digits} `.repeat(1000)) - estimate('0 '.repeat(1000));
    expect(groups('12')).toBe(0);
    expect(groups('123')).toBe(0);
    expect(groups('1234')).toBeCloseTo(costs[COST.DIGIT_GROUP]!, -1);
    expect(groups('123456')).toBeCloseTo(costs[COST.DIGIT_GROUP]!, -1);
    expect(groups('1234567')).toBeCloseTo(2 * costs[COST.DIGIT_GROUP]!, -1);
  });

  it('charges a longer word at least as much as a shorter one', () => {
    let previous = 0;
    for (let n = 1; n <= 40; n++) {
      const tokens = estimate(`${'x'.repeat(n)} `.repeat(1000));
      expect(tokens).toBeGreaterThanOrEqual(previous);
      previous = tokens;
    }
  });

  it('charges indentation once per line, whatever its width up to the long-run threshold', () => {
    const body = 'return value;';
    const two = estimate(`  ${body}\n`.repeat(500));
    const eight = estimate(`        ${body}\n`.repeat(500));
    expect(eight).toBe(two);
    expect(estimate(`${body}\n`.repeat(500))).toBeLessThan(two);
  });

  it('prices emoji as astral pairs and lone surrogates without failing', () => {
    expect(estimate('😀'.repeat(100))).toBeGreaterThan(estimate('a'.repeat(100)));
    const lone = '\ud800x\udfff\udbff';
    expect(estimate(lone)).toBeGreaterThanOrEqual(3);
    expect(estimate('\ud83d')).toBeGreaterThan(0); // a high surrogate at the very end
    expect(estimate('x\u0000y\u0000')).toBeGreaterThan(estimate('xy'));
  });

  it('prices long hex and base64 runs per character', () => {
    const hash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    const hex = estimate(`${hash}\n`.repeat(100));
    expect(hex).toBeGreaterThan(100 * 64 * 0.3);
    expect(hex).toBeLessThan(100 * 64);
  });

  it('estimates o200k differently from DeepSeek-V3 but in the same range', () => {
    const text = 'ERROR 2024-05-01T10:00:00Z [worker-3] request /api/v1/items failed: timeout after 30000 ms\n'.repeat(
      50,
    );
    const a = estimate(text);
    const b = o200k.estimate(text);
    expect(b).toBeGreaterThan(a * 0.7);
    expect(b).toBeLessThan(a * 1.3);
  });

  it('handles a 1 MB single line', () => {
    const line = 'lorem ipsum dolor sit amet, '.repeat(40000).slice(0, 1 << 20);
    const tokens = estimate(line);
    expect(tokens).toBeGreaterThan((1 << 20) / 8);
    expect(tokens).toBeLessThan((1 << 20) / 2);
    const a = new TextAnalysis(line, backend);
    expect(a.lineTokens.milli.length).toBe(1);
    expect(a.lineTokens.tokens).toBe(tokens);
  });

  it('never decreases when lines are added', () => {
    const lines = ['  at com.example.Foo.bar(Foo.java:42)', '', 'INFO ok', '中文', '\t😀 done', '0xdeadbeef 12345'];
    let previous = 0;
    for (let n = 1; n <= 60; n++) {
      const tokens = estimate(Array.from({ length: n }, (_, i) => lines[i % lines.length]).join('\n'));
      expect(tokens).toBeGreaterThanOrEqual(previous);
      previous = tokens;
    }
  });

  it('estimates fragments without evicting the text an analysis holds', () => {
    const analysed = 'ERROR in module\n'.repeat(4000);
    const shared = testBackend();
    const a = new TextAnalysis(analysed, shared);
    createEstimator({ backend: backendName }).estimate('a fragment of some length, '.repeat(20));
    expect(shared.text).toBe(analysed);
    expect(a.lineTokens.tokens).toBe(estimate(analysed));
  });

  it('rejects unknown profiles and malformed cost tables with a clear error', () => {
    expect(() => createEstimator({ profile: 'gpt2' as never, backend })).toThrow(/unknown token profile/);
    expect(() => createEstimator({ profile: { name: 'bad', costs: new Int32Array(3) }, backend })).toThrow(
      /non-negative costs/,
    );
  });
});

describe(`per-line tokens (${backendName})`, () => {
  const samples = [
    '',
    'one line',
    'a\nb\n',
    'a\r\nb\r\n\r\n\n  indented\n\ttab\n',
    'x\r',
    '\n\n\n',
    'mixed 中文 😀 \ud800 and 12345678 and deadbeefcafebabe0123456789\nsecond line\n',
    'ERROR: [main] something failed at /usr/lib/x.so:123\n'.repeat(3000),
  ];

  it.each(samples.map((s) => [JSON.stringify(s.slice(0, 40)), s]))(
    'sum to the whole-text estimate on %s',
    (_, text) => {
      const a = new TextAnalysis(text as string, backend);
      const { milli, tokens } = a.lineTokens;
      expect(milli.length).toBe(a.lines.count);
      const sum = milli.reduce((s, m) => s + m, 0);
      expect(Math.ceil(sum / 1000)).toBe(tokens);
      expect(tokens).toBe(estimate(text as string));
      for (const m of milli) expect(Number.isInteger(m) && m >= 0).toBe(true);
    },
  );

  it('gives a joined selection of lines the sum of their values', () => {
    const text = 'first line here\n\n  second: 42\nthird 中文 line\nlast';
    const a = new TextAnalysis(text, backend);
    const { milli } = a.lineTokens;
    // Lines 1..3 joined with LF and ending in LF cost exactly their per-line values.
    const selection = `${[1, 2, 3].map((i) => a.line(i)).join('\n')}\n`;
    expect(estimate(selection)).toBe(Math.ceil((milli[1]! + milli[2]! + milli[3]!) / 1000));
  });

  it('caches per profile and follows the profile asked for', () => {
    const a = new TextAnalysis('some text\nmore text 123\n', backend);
    expect(a.lineTokens).toBe(a.lineTokens);
    expect(o200k.lines(a).tokens).toBe(o200k.estimate(a.text));
  });
});
