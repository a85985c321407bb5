import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/index.js';
import { extractiveViolation } from '../support/extractive.js';
import { backendName } from '../support/backend.js';

const squeeze = () => createSqueeze({ backend: backendName, minTokens: 10, store: null, retainOriginal: false });
const hash = (i: number) => (0x1000000 + i * 7919).toString(16).padStart(7, '0').slice(-7);
const SUBJECTS = ['fix: retry the upload on a timeout', 'docs: the install steps', 'test: the parser on empty input'];

describe(`same-subject commits at the lossless level (${backendName})`, () => {
  it('lists a repeated subject once, with the short hashes of its later commits', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `${hash(i)} ${SUBJECTS[i % 3]} (#${100 + (i % 3)})`);
    const text = lines.join('\n');
    const result = squeeze().compress(text, { kind: 'gitlog' });
    expect(result.level).toBe('lossless');
    const later = Array.from({ length: 9 }, (_, k) => hash(3 * (k + 1)));
    expect(result.output).toContain(
      `${lines[0]}\n[… lines 4, 7, 10, 13, 16, 19, 22, 25, 28 (9): same subject: ${later.join(', ')} …]`,
    );
    expect(result.omitted['lines of same-subject commits']).toBe(27);
    expect(extractiveViolation(text, result.output)).toBeNull();
  });

  it('folds whole commit blocks of the full format, and leaves distinct subjects alone', () => {
    const block = (i: number, subject: string) => [
      `commit ${hash(i)}${'0'.repeat(33)}`,
      `Author: Dev ${i} <dev${i}@example.com>`,
      `Date:   Mon Nov 30 10:${String(i).padStart(2, '0')}:00 2026 +0000`,
      '',
      `    ${subject}`,
      '',
    ];
    const text = [...block(0, 'wip'), ...block(1, 'feat: the parser'), ...block(2, 'wip'), ...block(3, 'wip')].join(
      '\n',
    );
    const output = squeeze().compress(text, { kind: 'gitlog' }).output;
    expect(output).toContain('    feat: the parser');
    expect(output).toMatch(/^\[… lines 13–23 \(11\): same subject: /m);
    expect(extractiveViolation(text, output)).toBeNull();
  });
});
