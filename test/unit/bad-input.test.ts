// Bad input never crashes, never grows, and costs linear time (checked by
// doubling, not by wall-clock thresholds): binary, lone surrogates, huge
// single lines, deep JSON, malformed HTML, ANSI storms, empty strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compress, createSqueeze } from '../../src/pipeline/index.js';
import { CONTENT_KINDS, type ContentKind } from '../../src/types.js';
import { backendName } from '../support/backend.js';

const backend = backendName;
const squeeze = createSqueeze({ backend, minTokens: 1 });

function checkInvariants(text: string, kind?: ContentKind): void {
  const result = squeeze.compress(text, kind ? { kind } : {});
  expect(['compressed', 'below-min-tokens', 'not-smaller', 'failed']).toContain(result.outcome);
  expect(result.bytesOut).toBeLessThanOrEqual(result.bytesIn);
  if (result.outcome !== 'compressed') expect(result.output).toBe(text);
}

describe(`bad input (${backend})`, () => {
  it('random strings of any code units, in every kind', () => {
    const kinds = fc.constantFrom(undefined, ...CONTENT_KINDS);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), kinds, (text, kind) => checkInvariants(text, kind)),
      { numRuns: 150 },
    );
  });

  it('random log-shaped lines with surrogates, NUL and CR', () => {
    const piece = fc.constantFrom(
      'ERROR',
      ' at x.js:1:2',
      '\n',
      '\r\n',
      '\r',
      '\u0000',
      '\ud83d',
      '\ude00',
      'FAIL',
      '{"a":',
      '<div>',
      '\u001b[31m',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 2000 }), (parts) => checkInvariants(parts.join('').repeat(3))),
      { numRuns: 60 },
    );
  });

  it('binary data read as text', () => {
    const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 2654435761) >>> 24);
    checkInvariants(Buffer.from(bytes).toString('latin1'));
    checkInvariants(Buffer.from(bytes).toString('utf8'));
  });

  it('an empty string and whitespace only', () => {
    for (const text of ['', '\n', '\r\n\r\n', ' '.repeat(10_000), '\n'.repeat(50_000)]) checkInvariants(text);
  });

  it('a 50 MB single line', () => {
    const line = 'x7 '.repeat(Math.ceil((50 << 20) / 3)).slice(0, 50 << 20);
    const result = compress(line, { backend, store: null, retainOriginal: false });
    expect(result.bytesOut).toBeLessThanOrEqual(result.bytesIn);
  });

  it('JSON nested 100,000 deep', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    checkInvariants(deep, 'json');
    checkInvariants(deep);
    const objects = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    checkInvariants(objects);
  });

  it('malformed HTML', () => {
    const html =
      '<html><body><div><p>unclosed <b>bold <i>italic <table><tr><td>cell' +
      '<div>'.repeat(20_000) +
      '</span>'.repeat(500) +
      '<!-- never closed <script>var a = "</div>';
    checkInvariants(html, 'html');
    checkInvariants(html);
  });

  it('ANSI-heavy output', () => {
    const line = (i: number) =>
      `\u001b[1m\u001b[32m✓\u001b[39m\u001b[22m test ${i} \u001b[2m(${i}ms)\u001b[22m\u001b[K`;
    checkInvariants(Array.from({ length: 20_000 }, (_, i) => line(i)).join('\n'));
  });

  it('grows linearly: doubling the input about doubles the work, never squares it', () => {
    const unit = Array.from(
      { length: 2000 },
      (_, i) => `2026-11-30 10:00:${i % 60} INFO worker ${i % 7}: tick ${i}`,
    ).join('\n');
    const time = (text: string) => {
      const runs: number[] = [];
      for (let r = 0; r < 3; r++) {
        const started = performance.now();
        compress(text, { backend, store: null, retainOriginal: false, level: 'light' });
        runs.push(performance.now() - started);
      }
      return Math.min(...runs);
    };
    time(unit); // warm-up
    const small = time(unit.repeat(4));
    const large = time(unit.repeat(16));
    // Quadratic work would be 16x; linear is 4x. Allow generous noise on a shared machine.
    expect(large / small).toBeLessThan(10);
  });
});
