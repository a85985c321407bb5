// The time budget per result, on an injected clock (no timing in the test):
// past the budget no further level starts; the best output so far comes back
// marked, or the original with outcome 'timed-out' when none is ready.
import { describe, expect, it } from 'vitest';
import { createSqueeze, OptionsError } from '../../src/pipeline/index.js';
import { backendName } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';

/** Records of an API listing: lossless, light and aggressive each cut more of it. */
function listing(records: number): string {
  return JSON.stringify(
    Array.from({ length: records }, (_, i) => ({
      id: i,
      name: `order ${i}`,
      status: i === 170 ? 'error: card declined' : 'ok',
      total: (i * 7.3) % 100,
    })),
    null,
    2,
  );
}

/** A clock that reads `start` for its first `calls` readings, then `later`. */
function steppedClock(calls: number, later: number): () => number {
  let readings = 0;
  return () => (readings++ < calls ? 0 : later);
}

const tight = { minTokens: 10, targetTokens: 50, maxTokens: 100, recentResults: 0, backend: backendName } as const;

describe(`time budget (${backendName})`, () => {
  const text = listing(300);

  it('escalates as usual within the budget', () => {
    const result = createSqueeze({ ...tight, now: () => 0 }).compress(text);
    expect(result.outcome).toBe('compressed');
    expect(result.level).not.toBe('lossless'); // lossless is over the target here: it escalated
    expect(result.timedOut).toBeUndefined();
  });

  it('returns the output in hand, marked, when the budget runs out before the next level', () => {
    // Readings: start, the check before the first level; then the budget is gone.
    // A ceiling the lossless form fits: only the target would have sent it harsher.
    const roomy = { ...tight, maxTokens: 20_000 };
    const result = createSqueeze({ ...roomy, timeBudgetMs: 1000, now: steppedClock(2, 5000) }).compress(text);
    expect(result).toMatchObject({ outcome: 'compressed', level: 'lossless', timedOut: true });
    expect(result.output).toContain('error: card declined');
    expect(result.id).not.toBeNull();
  });

  it('still holds maxTokens past the budget, with the cheap cuts only, and stays marked', () => {
    // 400: the smallest ceiling the budgets test holds (100 is less than a notice and a preview).
    const squeeze = createSqueeze({ ...tight, maxTokens: 400, timeBudgetMs: 1000, now: steppedClock(2, 5000) });
    const result = squeeze.compress(text);
    expect(result).toMatchObject({ outcome: 'compressed', timedOut: true });
    expect(result.tokensOut).toBeLessThanOrEqual(squeeze.options.maxTokens);
  });

  it('passes the original through as timed-out when analysis used up the budget', () => {
    const squeeze = createSqueeze({ ...tight, timeBudgetMs: 1000, now: steppedClock(1, 5000) });
    const result = squeeze.compress(text);
    expect(result).toMatchObject({ outcome: 'timed-out', output: text, id: null });
  });

  it.each(['diff', 'gitlog', 'listing'])(
    'a %s processor that finds the budget spent midway gives way to the emergency form, marked',
    (folder) => {
      const fixture = fixtures(folder).sort((a, b) => b.text.length - a.text.length)[0]!;
      const roomy = { ...tight, maxTokens: 20_000 };
      // Readings: start, the check before the first level; the processor's first check finds the budget gone.
      const late = createSqueeze({ ...roomy, timeBudgetMs: 1000, now: steppedClock(2, 5000) });
      const result = late.compress(fixture.text, { level: 'light', kind: folder as 'diff' });
      expect(result).toMatchObject({ outcome: 'compressed', level: 'emergency', timedOut: true, kind: folder });
      expect(result.tokensOut).toBeLessThanOrEqual(roomy.maxTokens);
      const inTime = createSqueeze({ ...roomy, now: () => 0 }).compress(fixture.text, {
        level: 'light',
        kind: folder as 'diff',
      });
      expect(inTime).toMatchObject({ level: 'light', kind: folder });
      expect(inTime.timedOut).toBeUndefined();
    },
  );

  it('validates the option', () => {
    expect(() => createSqueeze({ timeBudgetMs: 0 })).toThrow(OptionsError);
    expect(() => createSqueeze({ timeBudgetMs: 1.5 })).toThrow(/timeBudgetMs/);
  });
});
