// ccr_retrieve's grep on the real harness tool pipeline, driven with patterns
// that make a backtracking engine run for minutes: every call returns (or
// fails as a tool error saying what to do), and the harness's timers keep
// firing while a long search runs (it yields between slices of work).
//
// How "the timers keep running" is shown without a timing threshold: a
// blocking search lets a 10 ms interval fire zero times while it runs, however
// long it runs; a search that yields lets it fire during the search. So each
// search over a big original counts the ticks that happened while it was in
// flight, and the test asserts ticks > 0 for every search that lasted at least
// five intervals, and that at least one search lasted that long (an 8 MB
// original with a 1 MB hostile line does on any machine we know; if one is so
// fast it does not, this test says so rather than passing empty).
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PATTERN_CHARS } from '../../src/store/index.js';
import { createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
const INTERVAL_MS = 10;

let h: Harness;
afterEach(() => h?.close());

/** `megabytes` of log lines with hostile lines in the middle. */
function original(megabytes: number): string {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < megabytes * 1024 * 1024; i++) {
    const line = `2026-11-30T09:00:${String(i % 60).padStart(2, '0')}Z ${i % 50 === 0 ? 'ERROR' : 'INFO '} [http] GET /api/orders/${i} 200 ${i % 97}ms`;
    lines.push(line);
    size += line.length + 1;
  }
  const middle = lines.length >> 1;
  lines.splice(middle, 0, `${'a'.repeat(1024 * 1024)}!`, 'alpha beta gamma delta epsilon zeta '.repeat(2000));
  return lines.join('\n');
}

async function storedOriginal(megabytes: number): Promise<{ text: string; id: string }> {
  h = await createHarness();
  await h.ctx.plugin(squeezePlugin(), { logFile: '' });
  const text = original(megabytes);
  h.tool('bash', text);
  const shown = textOf(await h.call('bash'));
  const id = id24(text);
  expect(shown).toContain(`<<<CCR:${id}|`);
  return { text, id };
}

describe('ccr_retrieve grep on hostile patterns (real ToolRuntime)', () => {
  it('returns the right lines for catastrophic patterns, and the harness timers fire during long searches', async () => {
    const { text, id } = await storedOriginal(8);
    const lines = text.split('\n');
    const aLine = lines.findIndex((l) => l.endsWith('!')) + 1;
    // What each pattern must give (a backtracking engine gives nothing: it never returns).
    const expected: [string, (shown: string) => boolean][] = [
      // No line matches; the 1 MB line may be searched in pieces, and then the answer says so.
      [
        '(a+)+$',
        (shown) => shown === '' || /^\[… 1 line was too slow for this pattern to test whole .*…\]$/.test(shown),
      ],
      ['(\\w+\\s?)+:', (shown) => shown.startsWith(`1: ${lines[0]}\n2: ${lines[1]}\n`)],
      [
        '(a|aa)+!$',
        (shown) =>
          new RegExp(`^${aLine}: a{2000} \\[… [\\d,]+ more characters of line ${aLine};`).test(shown) &&
          !shown.includes('\n'),
      ],
      ['(.*a){12}', (shown) => shown.startsWith(`${aLine}: aaa`) && shown.includes(`\n${aLine + 1}: alpha beta`)],
    ];
    let ticks = 0;
    const timer = setInterval(() => ticks++, INTERVAL_MS);
    const searches: { grep: string; ms: number; ticks: number }[] = [];
    try {
      for (const [grep, holds] of expected) {
        const before = ticks;
        const started = performance.now();
        const result = await h.call('ccr_retrieve', { hash: id, grep });
        searches.push({ grep, ms: performance.now() - started, ticks: ticks - before });
        expect(result.isError, grep).toBe(false);
        expect(holds(textOf(result)), `${grep}: ${textOf(result).slice(0, 300)}`).toBe(true);
      }
    } finally {
      clearInterval(timer);
    }
    const long = searches.filter((s) => s.ms >= 5 * INTERVAL_MS);
    expect(long.length, `searches: ${JSON.stringify(searches)}`).toBeGreaterThan(0);
    for (const s of long) expect(s.ticks, `timer ticks during ${s.grep} (${s.ms.toFixed(0)} ms)`).toBeGreaterThan(0);
  }, 120_000);

  it('fails as a tool error that says what to do: too long, invalid, unsupported', async () => {
    const { id } = await storedOriginal(0.05);
    const long = 'x'.repeat(32 * 1024);
    const cases: [string, RegExp][] = [
      [long, new RegExp(`limit is ${MAX_PATTERN_CHARS.toLocaleString('en-US')}`)],
      ['(ERROR', /Invalid grep pattern: missing closing \)/],
      ['(INFO)\\1', /backreferences/],
      ['ERROR(?= \\[http)', /lookahead/],
    ];
    for (const [grep, says] of cases) {
      const result = await h.call('ccr_retrieve', { hash: id, grep });
      expect(result.isError, grep.slice(0, 20)).toBe(true);
      const message = textOf(result);
      expect(message).toMatch(says);
      expect(message).toMatch(/literal/);
      expect(message).not.toContain(long.slice(0, 100));
    }
  });

  it('matches plain text with literal: true', async () => {
    const { text, id } = await storedOriginal(0.05);
    const lines = text.split('\n');
    const result = await h.call('ccr_retrieve', { hash: id, grep: '/api/orders/12 200 (', literal: true });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe('');
    const hit = await h.call('ccr_retrieve', { hash: id, grep: '[http] GET /api/orders/12 ', literal: true });
    expect(textOf(hit)).toBe(`13: ${lines[12]}`);
  });
});
