// maxTokens is a ceiling for every kind and level: on every fixture folder,
// at every level, at the defaults and at a tight ceiling, no output (retrieval
// notice included) is larger, but for a read within the read tool's window at
// lossless and light, which passes whole. A forced level that cannot fit says so.
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import type { Level } from '../../src/types.js';
import { backendName } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures');
/** Fixture folders (labelled with `.keep.json`); test/fixtures/sources holds the raw files reads are made of. */
const folders = readdirSync(FIXTURES).filter(
  (name) =>
    statSync(join(FIXTURES, name)).isDirectory() &&
    readdirSync(join(FIXTURES, name)).some((file) => file.endsWith('.keep.json')),
);
const LEVELS: (Level | 'auto')[] = ['auto', 'lossless', 'light', 'aggressive', 'emergency'];
/** The defaults, and a ceiling tight enough for fixture-sized texts to hit it. */
const CEILINGS = [{}, { minTokens: 100, targetTokens: 200, maxTokens: 400 }];

describe(`maxTokens holds (${backendName})`, () => {
  it.each(folders)('every fixture of %s, every level, within maxTokens', (folder) => {
    let over = 0;
    for (const fixture of fixtures(folder)) {
      for (const ceiling of CEILINGS) {
        for (const level of LEVELS) {
          const squeeze = createSqueeze({ backend: backendName, ...ceiling, level });
          const result = squeeze.compress(fixture.text, { toolName: 'bash' });
          expect(result.outcome, `${fixture.name} ${level}`).not.toBe('failed');
          // A read within the read tool's window is what the model asked for: whole at lossless and light.
          if (result.outcome === 'asked-for') {
            expect(['auto', 'lossless', 'light'], fixture.name).toContain(level);
            expect(result.output).toBe(fixture.text);
            continue;
          }
          expect(result.tokensOut, `${fixture.name} ${level} ${JSON.stringify(ceiling)}`).toBeLessThanOrEqual(
            squeeze.options.maxTokens,
          );
          if (result.tokensIn > squeeze.options.maxTokens) over++;
        }
      }
    }
    // The tight ceiling is below every fixture's size: each case above was cut to fit.
    expect(over).toBeGreaterThan(0);
  });

  it('reports a forced level that could not be kept, and keeps one that fits', () => {
    const text = fixtures('logs').find((f) => f.name === 'jest')!.text;
    const tight = createSqueeze({
      backend: backendName,
      minTokens: 100,
      targetTokens: 200,
      maxTokens: 400,
      level: 'lossless',
    });
    const cut = tight.compress(text, { toolName: 'bash' });
    expect(cut.level).not.toBe('lossless');
    expect(cut.levelNotKept).toEqual({ requested: 'lossless', reason: 'over-max-tokens' });
    expect(cut.tokensOut).toBeLessThanOrEqual(400);
    // Past targetTokens but within maxTokens, a forced lossless stays lossless.
    const roomy = createSqueeze({ backend: backendName, targetTokens: 200, maxTokens: 100_000, level: 'lossless' });
    const kept = roomy.compress(text, { toolName: 'bash' });
    expect(kept.tokensOut).toBeGreaterThan(200);
    expect(kept.level).toBe('lossless');
    expect(kept.levelNotKept).toBeUndefined();
  });

  it('keeps every preserved item when it samples lines to fit', () => {
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `src/module${i}.ts:${i + 1}:  const value${i} = compute(${i}); // a long enough line of grep output`,
    );
    lines[2500] = 'src/auth.ts:77:  // TODO(security): CVE-2026-12345 rotate the signing key';
    const squeeze = createSqueeze({ backend: backendName, maxTokens: 2000, targetTokens: 1000 });
    const result = squeeze.compress(lines.join('\n'), { toolName: 'grep' });
    expect(result.tokensOut).toBeLessThanOrEqual(2000);
    expect(result.output).toContain('CVE-2026-12345');
    // Shown lines are whole original lines in order; each gap names the lines it covers.
    // The output ends with a line break: the empty string after it is no line.
    const body = result.output
      .replace(/\n$/, '')
      .split('\n')
      .filter((l) => !l.startsWith('<<<CCR:') && !l.startsWith('[original:'));
    let next = 0;
    for (const line of body) {
      const gap = /^\[… lines? ([\d,]+)(?:–([\d,]+))?/.exec(line);
      if (gap) {
        expect(Number(gap[1]!.replaceAll(',', '')) - 1).toBeGreaterThanOrEqual(next);
        next = Number((gap[2] ?? gap[1])!.replaceAll(',', ''));
        continue;
      }
      if (line.startsWith('[')) continue;
      const at = lines.indexOf(line, next);
      expect(at, line).toBeGreaterThanOrEqual(next);
      next = at + 1;
    }
  });
});
