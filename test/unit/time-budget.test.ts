// The time budget per result, on an injected clock (no timing in the test):
// past the budget no further level starts; the best output so far comes back
// marked, or the original with outcome 'timed-out' when none is ready.
import { describe, expect, it } from 'vitest';
import { createSqueeze, OptionsError } from '../../src/pipeline/index.js';
import { processors } from '../../src/processors/index.js';
import type { ContentKind } from '../../src/types.js';
import { backendName } from '../support/backend.js';
import { extractiveViolation } from '../support/extractive.js';
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

  // Each kind's biggest fixture (or a made-up page for the kinds without a folder), repeated to about 400 KB.
  const FOLDER: Partial<Record<ContentKind, string>> = { log: 'logs' };
  const MADE: Partial<Record<ContentKind, () => string>> = {
    json: () => listing(300),
    html: () =>
      `<html><body><main>${Array.from({ length: 300 }, (_, i) => `<h2>Part ${i}</h2><p>Paragraph ${i} of the page, with words.</p>`).join('')}</main></body></html>`,
    text: () =>
      Array.from({ length: 300 }, (_, i) => `Paragraph ${i} of a long note: the build ran ${i % 7} steps.\n`).join(
        '\n',
      ),
    binary: () => `\x7fELF\x02\x01\x01\0${'\0\x03\x3e\0\x01'.repeat(2000)}`,
  };
  const big = (kind: ContentKind): string => {
    const one = MADE[kind]?.() ?? fixtures(FOLDER[kind] ?? kind).sort((a, b) => b.text.length - a.text.length)[0]!.text;
    const joint = kind === 'json' ? null : '\n';
    if (joint === null) return listing(Math.ceil((300 * 400_000) / one.length));
    return Array.from({ length: Math.ceil(400_000 / one.length) }, () => one).join(joint);
  };

  it.each(Object.keys(processors) as ContentKind[])(
    'the %s processor asks the deadline inside its work: past it, a bounded result, the original kept',
    (kind) => {
      const text = big(kind);
      const roomy = { ...tight, maxTokens: 20_000 };
      // Readings: start, the check before the first level; the processor's first check finds the budget gone.
      const squeeze = createSqueeze({ ...roomy, timeBudgetMs: 1000, now: steppedClock(2, 5000) });
      const result = squeeze.compress(text, { level: 'aggressive', kind });
      expect(result).toMatchObject({ outcome: 'compressed', level: 'emergency', timedOut: true, kind });
      expect(result.tokensOut).toBeLessThanOrEqual(roomy.maxTokens);
      const body = result.output.slice(0, result.output.lastIndexOf('\n', result.output.length - 2) + 1);
      expect(extractiveViolation(text, body)).toBeNull();
      const found = squeeze.store!.get(result.id!);
      expect(found.found && found.entry.text === text).toBe(true);
    },
  );

  it('validates the option', () => {
    expect(() => createSqueeze({ timeBudgetMs: 0 })).toThrow(OptionsError);
    expect(() => createSqueeze({ timeBudgetMs: 1.5 })).toThrow(/timeBudgetMs/);
  });
});
