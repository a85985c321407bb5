// `npm start` (squeeze demo): the shipped sample loses none of its evidence.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoSample } from '../../src/demo/sample.js';

describe('squeeze demo', () => {
  it('runs from the bundle, keeps every piece of evidence and cuts the rest', () => {
    const out = execFileSync(process.execPath, [resolve(import.meta.dirname, '../../dist/cli.js'), 'demo'], {
      encoding: 'utf8',
    });
    expect(out).toMatch(/^ {2}kept {2}/m);
    expect(out).not.toMatch(/^ {2}LOST {2}/m);
    const [, fewer] = /\((\d+\.\d)% fewer;/.exec(out) ?? [];
    expect(Number(fewer)).toBeGreaterThan(50);
    expect(out).toContain('<<<CCR:');
  });

  it('builds the same sample on every run (the project makes it, byte for byte)', () => {
    expect(demoSample()).toBe(demoSample());
    expect(demoSample().split('\n').length).toBeGreaterThan(800);
  });
});
