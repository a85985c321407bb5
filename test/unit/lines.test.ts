import { describe, expect, it } from 'vitest';
import { TextAnalysis } from '../../src/engine/index.js';
import { backendName, testBackend } from '../support/backend.js';

function lines(text: string): string[] {
  const a = new TextAnalysis(text, testBackend());
  return Array.from({ length: a.lines.count }, (_, i) => a.line(i));
}

describe(`line table (${backendName})`, () => {
  it.each([
    ['', []],
    ['a', ['a']],
    ['a\n', ['a']],
    ['\n', ['']],
    ['a\nb', ['a', 'b']],
    ['a\r\nb\r\n', ['a', 'b']],
    ['a\rb\n', ['a', 'b']],
    ['\r\n\r\n', ['', '']],
    ['x\r', ['x']],
    ['\n\n\n', ['', '', '']],
    ['a\rb\rc', ['a', 'b', 'c']],
    ['\r\r', ['', '']],
    ['\n\r', ['', '']],
    ['\r\n\r', ['', '']],
    ['a\r\r\nb', ['a', '', 'b']],
  ])('splits %j', (text, expected) => {
    expect(lines(text)).toEqual(expected);
  });

  it('agrees with String.split on long mixed input', () => {
    const parts = Array.from({ length: 500 }, (_, i) => 'x'.repeat(i % 37) + (i % 3 === 0 ? '\r' : ''));
    const text = parts.join('\n');
    const expected = text.split('\n').map((l, i, all) => (l.endsWith('\r') && i < all.length - 1 ? l.slice(0, -1) : l));
    expect(lines(text)).toEqual(expected);
  });

  it('agrees with a split on LF, CRLF and lone CR over long mixed input', () => {
    const breaks = ['\n', '\r\n', '\r'];
    const parts = Array.from({ length: 3000 }, (_, i) => 'y'.repeat((i * 7) % 41) + breaks[(i * 5) % 3]);
    const text = parts.join('');
    expect(lines(text)).toEqual(text.split(/\r\n|\r|\n/).slice(0, -1));
  });

  it('reports the backend it ran on', () => {
    const a = new TextAnalysis('x\n'.repeat(5000), testBackend());
    expect(a.lines.count).toBe(5000);
    expect(a.backendName).toBe(backendName);
  });
});

describe(`exact duplicate groups (${backendName})`, () => {
  it('groups identical lines, consecutive or not, with exact counts', () => {
    const a = new TextAnalysis('a\nb\na\na\nc\nb\na', testBackend());
    expect(Array.from(a.exact.group)).toEqual([0, 1, 0, 0, 4, 1, 0]);
    expect(Array.from(a.exact.size)).toEqual([4, 2, 4, 4, 1, 2, 4]);
    expect(a.exact.distinct).toBe(3);
  });

  it('treats CRLF and LF lines with equal content as equal, and near-equal lines as different', () => {
    const a = new TextAnalysis('same\r\nsame\nsame \nSame', testBackend());
    expect(Array.from(a.exact.group)).toEqual([0, 0, 2, 3]);
  });

  it('hashes odd and even lengths, surrogates and NUL distinctly', () => {
    const text = ['ab', 'abc', 'a\u0000', '\ud800', '\udc00', '😀', 'ba'].join('\n');
    const a = new TextAnalysis(text, testBackend());
    expect(a.exact.distinct).toBe(7);
  });

  it('keeps results when two analyses share the backend', () => {
    const backend = testBackend();
    const first = new TextAnalysis('one\ntwo\n'.repeat(2000), backend);
    const second = new TextAnalysis('three\n'.repeat(3000), backend);
    expect(second.lines.count).toBe(3000);
    expect(first.lines.count).toBe(4000);
    expect(first.line(1)).toBe('two');
    expect(first.exact.distinct).toBe(2);
  });
});

describe(`the emergency preview follows the one line-break rule (${backendName})`, () => {
  it('a lone-CR progress log: no raw CR in the preview line, and its line count is the one the markers number', async () => {
    const { compress } = await import('../../src/pipeline/index.js');
    const { preview } = await import('../../src/pipeline/ccr.js');
    const { lineCount } = await import('../../src/text/strings.js');
    const text = `${Array.from({ length: 400 }, (_, i) => `Downloading layer ${i} ${i % 100}%`).join('\r')}\r\nDone\n`;
    const total = lines(text).length;
    expect(lineCount(text)).toBe(total);
    expect(preview('terminal', text, 240)).toBe(`exit ? | ${total} lines | Downloading layer 0 0%`);
    const result = compress(text, { backend: backendName, toolName: 'bash', level: 'emergency', minTokens: 1 });
    const head = result.output.split('\n')[0]!;
    expect(head).not.toContain('\r');
    expect(head).toContain(`| ${total} lines |`);
    expect(result.output).toContain(`lines 1–${total}`);
  });
});
