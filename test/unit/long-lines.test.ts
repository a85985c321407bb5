// Lines past MAX_LINE_CHARS: the line-shaped processors see one marker line in
// each one's place (same line count, so line numbers stay the original's),
// and the original keeps it whole.
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { MAX_LINE_CHARS, shortenLongLines } from '../../src/pipeline/long-lines.js';
import { backendName } from '../support/backend.js';

const logLine = (i: number) =>
  `2026-11-30T09:00:00Z ${i === 300 ? 'ERROR payment failed for order 17' : 'INFO worker processed a job'} ${i}`;

describe(`over-long lines (${backendName})`, () => {
  it('leaves texts without a long line alone', () => {
    expect(shortenLongLines('short\n'.repeat(50_000))).toBeNull();
    expect(shortenLongLines('x'.repeat(MAX_LINE_CHARS))).toBeNull();
  });

  it('replaces each long line by one marker with its number, length and start, breaks kept', () => {
    const long = 'y'.repeat(MAX_LINE_CHARS + 5);
    const text = `${['first', long, 'third', long].join('\r\n')}\rlast`;
    const out = shortenLongLines(text)!;
    expect(out.lines).toBe(2);
    const lines = out.text.split(/\r\n|\r|\n/);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('first');
    expect(lines[1]).toBe(
      `[… line 2: ${(MAX_LINE_CHARS + 5).toLocaleString('en-US')} characters, too long to analyse; it starts "${'y'.repeat(120)}" …]`,
    );
    expect(lines[3]).toMatch(/^\[… line 4: /);
    expect(lines[4]).toBe('last');
    expect(out.text.split('\r\n')).toHaveLength(4); // the CRLF breaks are the original's
  });

  it('never splits a surrogate pair in the quoted start', () => {
    const out = shortenLongLines(`${'a'.repeat(119)}${'😀'.repeat(MAX_LINE_CHARS)}`)!;
    expect(out.text).toContain(`"${'a'.repeat(119)}"`);
  });

  it('compresses a log with a huge line: the marker names its line, the count says so, the original is whole', () => {
    const lines = Array.from({ length: 600 }, (_, i) => logLine(i));
    lines[450] = `payload ${'z'.repeat(3 * MAX_LINE_CHARS)}`;
    const text = lines.join('\n');
    const squeeze = createSqueeze({ backend: backendName, recentResults: 0 });
    const result = squeeze.compress(text, { toolName: 'bash' });
    expect(result.outcome).toBe('compressed');
    expect(result.omitted['lines too long to analyse']).toBe(1);
    expect(result.output).toContain('ERROR payment failed for order 17');
    expect(result.output).not.toContain('z'.repeat(1000));
    const stored = squeeze.store!.get(result.id!);
    expect(stored.found && stored.entry.text === text).toBe(true);
  });

  it('leaves a one-line JSON document to the JSON processor', () => {
    const text = JSON.stringify(
      Array.from({ length: 20_000 }, (_, i) => ({ id: i, status: i === 7 ? 'error' : 'ok' })),
    );
    const result = createSqueeze({ backend: backendName, recentResults: 0 }).compress(text);
    expect(result.kind).toBe('json');
    expect(result.omitted['lines too long to analyse']).toBeUndefined();
  });
});
