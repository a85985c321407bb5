// Retrieval grep over one 4 MB line with a pattern whose automaton builds a
// new state at almost every character (issue 19's probe): ccr_retrieve and
// `squeeze retrieve --grep` answer, saying how far the search got when its
// deadline stopped it inside the line, and the harness's timers fire during
// the search (before, the line was one step: a 10 ms interval fired zero times
// during it, however long it ran). Slicing itself is asserted without timing in
// test/unit/search-pieces.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import { spawnCli } from '../support/cli.js';
import { createHarness, type Harness, squeezePlugin, textOf } from '../support/dsh-harness.js';

const PATTERN = '(a[ab]{30}b[ab]{30}){3}[^ab]';
const INTERVAL_MS = 10;
/**
 * What the answer says: nothing matched in the searched part, and, when the
 * deadline stopped it, how far it got; a machine fast enough to finish the line
 * in pieces before the deadline says it was searched in pieces.
 */
const ANSWER =
  /^$|^\[… search stopped after 2,000 ms at character [\d,]+ of line 1 \(4,194,304 characters\) of 1; .* searched [\d,]+ of 4,194,304 characters …\]$|^\[… 1 line was too slow for this pattern to test whole and was searched in pieces: .* returns line 1 whole …\]$/;

/** 4 MiB of a and b in a fixed pseudo-random order, one line. */
function abLine(): string {
  const chars: string[] = [];
  for (let i = 0, x = 12345; i < 4 * 1024 * 1024; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    chars.push(x & 0x10000 ? 'a' : 'b');
  }
  return chars.join('');
}

const root = mkdtempSync(join(tmpdir(), 'squeeze-long-line-'));
let h: Harness | undefined;
afterEach(() => h?.close());
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('grep inside one 4 MB line', () => {
  it('ccr_retrieve answers and the harness timers keep firing during the search', async () => {
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    const text = abLine();
    h.tool('bash', text);
    const id = /<<<CCR:([0-9a-f]{24})\|/.exec(textOf(await h.call('bash')))?.[1];
    expect(id).toBeDefined();
    let ticks = 0;
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, INTERVAL_MS);
    const started = performance.now();
    const result = await h.call('ccr_retrieve', { hash: id, grep: PATTERN });
    const ms = performance.now() - started;
    clearInterval(timer);
    const said = `${ms.toFixed(0)} ms, ${ticks} ticks, longest gap ${longestGap.toFixed(0)} ms`;
    expect(result.isError, said).toBe(false);
    expect(textOf(result), said).toMatch(ANSWER);
    expect(ms, said).toBeGreaterThan(5 * INTERVAL_MS);
    expect(ticks, said).toBeGreaterThan(0);
  }, 60_000);

  it('squeeze retrieve --grep answers with exit 0', async () => {
    const dir = join(root, 'store');
    const store = createStore({ dir });
    const { id } = store.put(abLine(), { type: 'file' });
    store.close();
    const run = await spawnCli(['retrieve', id, '--grep', PATTERN, '--store', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.toString().trimEnd()).toMatch(ANSWER);
  }, 60_000);
});
