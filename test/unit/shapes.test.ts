import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/index.js';
import { extractiveViolation } from '../support/extractive.js';
import { backendName } from '../support/backend.js';

const squeeze = () => createSqueeze({ backend: backendName, minTokens: 10, store: null, retainOriginal: false });
const stamp = (i: number) => `2026-12-02T10:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(3, '0')}Z`;

describe(`same-shape runs at the lossless level (${backendName})`, () => {
  it('folds lines differing only in timestamps and counters to the first, with the exact count', () => {
    const polls = Array.from({ length: 30 }, (_, i) => `${stamp(i)} INFO poll ${i} returned 200 in ${i % 7} ms`);
    const text = ['server started', ...polls, 'server stopped'].join('\n');
    const result = squeeze().compress(text, { kind: 'log' });
    expect(result.level).toBe('lossless');
    expect(result.output).toContain(polls[0]);
    expect(result.output).toMatch(/^\[… lines 3–31 \(29\): 29 more of the line shown above; varying: /m);
    expect(result.omitted['lines of same-shape runs']).toBe(29);
    expect(extractiveViolation(text, result.output)).toBeNull();
  });

  it('folds repeated blocks of one shape (download progress) to the first block, never the warnings', () => {
    const downloads = Array.from({ length: 40 }, (_, i) => [
      '   Downloading crates.io index',
      `   Downloading serde v1.0.${i}`,
    ]);
    const warnings = Array.from({ length: 5 }, (_, i) => `warning: unused variable: var_${i}`);
    const text = [...downloads.flat(), ...warnings, '   Compiling demo v0.1.0'].join('\n');
    const result = squeeze().compress(text, { kind: 'log' });
    expect(result.output).toContain(
      '   Downloading serde v1.0.0\n[… lines 3–80 (78): 39 more of the 2-line block shown above; varying: 40 values, first 1.0.0, last 1.0.39 …]',
    );
    for (const line of warnings) expect(result.output).toContain(line);
    expect(extractiveViolation(text, result.output)).toBeNull();
  });

  it('folds a warning repeated over time, never warnings about different things', () => {
    const waits = Array.from({ length: 15 }, (_, i) => `${stamp(i)} WARN connection pool exhausted, waiting`);
    const slow = Array.from({ length: 15 }, (_, i) => `${stamp(i)} WARN query ${i} slow`);
    const text = ['start', ...waits, ...slow, 'done'].join('\n');
    const output = squeeze().compress(text, { kind: 'log' }).output;
    expect(output).toMatch(/^\[… lines 3–16 \(14\): 14 more of the line shown above; varying: /m);
    for (const line of slow) expect(output).toContain(line);
    expect(extractiveViolation(text, output)).toBeNull();
  });

  it('never folds error or warning lines, and leaves identical repeats to the exact collapse', () => {
    const errors = Array.from(
      { length: 20 },
      (_, i) => `${stamp(i)} ${i % 2 ? 'WARN' : 'ERROR'} request ${i} slow: timeout`,
    );
    const same = Array.from({ length: 20 }, () => 'heartbeat ok');
    const text = [...errors, ...same, 'done'].join('\n');
    const output = squeeze().compress(text, { kind: 'log' }).output;
    for (const line of errors) expect(output).toContain(line);
    expect(output).toContain('[×20 lines 21–40] heartbeat ok');
    expect(output).not.toContain('more of the');
  });
});
