// Hostile tool outputs (deep nesting, a huge JSON object, one huge line,
// escape storms, CR-only lines) through compressAsync, the real DSH tool
// pipeline and the CLI: every call returns, the output is bounded, the original comes back
// exactly, and big results are compressed on a worker thread so the caller's
// timers keep firing. No timing thresholds: the timer check is "ticks > 0
// during any call that lasted at least five intervals" (a blocked event loop
// gives zero however long the call runs), with at least one call that long.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOSTILE, HOSTILE_COMMANDS, HOSTILE_LINEAR } from '../../bench/hostile-inputs.js';
import { createSqueeze } from '../../src/pipeline/index.js';
import { runCli } from '../support/cli.js';
import { createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

const INTERVAL_MS = 10;
const MB = 1024 * 1024;
const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);

/** The hostile inputs, at sizes a test can afford (bench/hostile.ts runs the full ones). */
const INPUTS: Record<string, () => string> = {
  'nested divs (2e5)': () => `<html><body>${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}</body></html>`,
  'JSON, 2e5 keys': () => `{${Array.from({ length: 200_000 }, (_, i) => `"key${i}":${i}`).join(',')}}`,
  'single line, 8 MB': () =>
    'GET /api/orders/12345 200 18ms user=alice session=abcdef0123456789 '.repeat((8 * MB) / 68),
  'ANSI storm, 2 MB': () =>
    '\x1b[2K\x1b[1G\x1b[36m⠋\x1b[39m Building \x1b[1m42%\x1b[22m\x1b[0m\x1b[?25l'.repeat((2 * MB) / 50),
  'CR-only line endings': () =>
    Array.from(
      { length: 14_000 },
      (_, i) => `2026-11-30T09:00:00Z ${i % 40 === 0 ? 'ERROR' : 'INFO'} worker ${i % 7} processed job ${i}`,
    ).join('\r'),
};

/** Runs `work` with a 10 ms interval going; how long it took and how often the interval fired meanwhile. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, INTERVAL_MS);
  const started = performance.now();
  try {
    const value = await work();
    return { value, ms: performance.now() - started, ticks };
  } finally {
    clearInterval(timer);
  }
}

/** How to check that the original's first line comes back: by range when it is short, by a literal grep otherwise. */
function firstLineProbe(text: string): { firstLine: string; short: boolean; head: string } {
  const firstLine = /^[^\r\n]*(\r\n|\r|\n)?/.exec(text)![0];
  return { firstLine, short: firstLine.length <= 40_000, head: firstLine.slice(0, 60) };
}

function expectTimersRan(calls: { name: string; ms: number; ticks: number }[]): void {
  const long = calls.filter((c) => c.ms >= 5 * INTERVAL_MS);
  expect(long.length, JSON.stringify(calls)).toBeGreaterThan(0);
  for (const c of long) expect(c.ticks, `${c.name}: ${c.ms.toFixed(0)} ms`).toBeGreaterThan(0);
}

describe('hostile input through compressAsync', () => {
  it('returns a bounded output for each, identical to compress(), original stored and the timers running', async () => {
    const calls: { name: string; ms: number; ticks: number }[] = [];
    for (const [name, make] of Object.entries(INPUTS)) {
      const text = make();
      const squeeze = createSqueeze({ recentResults: 0 });
      const { value: result, ms, ticks } = await timed(() => squeeze.compressAsync(text));
      calls.push({ name, ms, ticks });
      expect(result.outcome, name).toBe('compressed');
      expect(result.bytesOut, name).toBeLessThan(50_000);
      const found = squeeze.store!.get(result.id!);
      expect(found.found && found.entry.text === text, name).toBe(true);
      const inline = createSqueeze({ recentResults: 0 }).compress(text);
      expect(result.output, name).toBe(inline.output);
    }
    expectTimersRan(calls);
  }, 300_000);

  it('compresses small texts inline, and falls back to compress() for an estimator of the caller', async () => {
    const text = 'line of a small log\n'.repeat(2000);
    const squeeze = createSqueeze({ recentResults: 0 });
    const result = await squeeze.compressAsync(text);
    expect(result.output).toBe(createSqueeze({ recentResults: 0 }).compress(text).output);
    const custom = createSqueeze({
      recentResults: 0,
      workerMinChars: 1,
      estimator: { estimate: (s) => Math.ceil(s.length / 4) },
    });
    expect((await custom.compressAsync(text)).output).toBe(custom.compress(text).output);
  });
});

describe('hostile input at full size through compress()', () => {
  // The linear inputs, and the glob listing whose budget search once ran into the 5 s time budget.
  const FULL: Record<string, () => string> = {
    ...HOSTILE_LINEAR,
    'glob listing, 10 MB': HOSTILE['glob listing, 10 MB']!,
  };
  // The processors these shapes reach, whose budget searches once re-rendered the output per try.
  const KIND: Record<string, string> = {
    'unified diff, 3,000 files': 'diff',
    'path listing, 260k': 'listing',
    'glob listing, 10 MB': 'listing',
  };
  it.each(Object.keys(FULL))(
    '%s comes out compressed, within maxTokens, its original stored',
    (name) => {
      const text = FULL[name]!();
      // Speed is the benchmark's (bench/hostile.ts): here no time budget may turn the result into a pass-through.
      const squeeze = createSqueeze({ recentResults: 0, timeBudgetMs: 3_600_000 });
      const result = squeeze.compress(text, { command: HOSTILE_COMMANDS[name] });
      expect(result.outcome, String(result.error ?? '')).toBe('compressed');
      expect(result.timedOut).toBeUndefined();
      if (KIND[name]) expect(result.kind).toBe(KIND[name]);
      expect(result.level).not.toBe('emergency');
      expect(result.tokensOut).toBeLessThanOrEqual(12_000);
      expect(Object.values(result.omitted).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      const found = squeeze.store!.get(result.id!);
      expect(found.found && found.entry.text === text).toBe(true);
    },
    600_000,
  );
});

describe('hostile input through the DSH plugin (real ToolRuntime)', () => {
  let h: Harness;
  afterEach(() => h?.close());

  it('every hostile result is compressed, bounded and retrievable, with the harness timers running', async () => {
    h = await createHarness();
    const tools = Object.keys(INPUTS).map((_, i) => `hostile_${i}`);
    await h.ctx.plugin(squeezePlugin(), { logFile: '', targets: tools });
    const calls: { name: string; ms: number; ticks: number }[] = [];
    for (const [name, make] of Object.entries(INPUTS)) {
      const text = make();
      const tool = `hostile_${calls.length}`;
      h.tool(tool, text);
      const { value: result, ms, ticks } = await timed(() => h.call(tool));
      calls.push({ name, ms, ticks });
      const shown = textOf(result);
      expect(result.isError, name).toBe(false);
      expect(Buffer.byteLength(shown), name).toBeLessThanOrEqual(50_000);
      expect(shown, name).toContain(`<<<CCR:${id24(text)}|`);
      // The original is there: its first line by range (when it fits the harness's inline cap), by grep otherwise.
      const { firstLine, short, head } = firstLineProbe(text);
      const probe = short
        ? { range: { start: 1, count: 1 }, expected: (shownText: string) => shownText === firstLine }
        : { grep: head, literal: true, expected: (shownText: string) => shownText.startsWith(`1: ${head}`) };
      const { expected, ...args } = probe;
      const back = await h.call('ccr_retrieve', { hash: id24(text), ...args });
      expect(back.isError, name).toBe(false);
      expect(expected(textOf(back)), `${name}: ${textOf(back).slice(0, 200)}`).toBe(true);
    }
    expectTimersRan(calls);
  }, 300_000);
});

describe('hostile input through the CLI', () => {
  it('compress exits 0 with a bounded output and an id whose original retrieve gives back', async () => {
    const store = mkdtempSync(join(tmpdir(), 'squeeze-hostile-'));
    try {
      for (const [name, make] of Object.entries(INPUTS)) {
        const text = make();
        const compressed = await runCli(['compress', '--json', '--store', store, '--tool', 'bash'], { stdin: text });
        expect(compressed.code, `${name}: ${compressed.stderr}`).toBe(0);
        const result = JSON.parse(compressed.stdout.toString('utf8')) as {
          outcome: string;
          output: string;
          id: string;
        };
        expect(result.outcome, name).toBe('compressed');
        expect(Buffer.byteLength(result.output), name).toBeLessThan(50_000);
        const { firstLine, short, head } = firstLineProbe(text);
        const back = short
          ? await runCli(['retrieve', result.id, '--store', store, '--start', '1', '--count', '1'])
          : await runCli(['retrieve', result.id, '--store', store, '--grep', head, '--literal']);
        expect(back.code, `${name}: ${back.stderr}`).toBe(0);
        const shown = back.stdout.toString('utf8');
        expect(short ? shown === firstLine : shown.startsWith(`1: ${head}`), `${name}: ${shown.slice(0, 200)}`).toBe(
          true,
        );
      }
    } finally {
      rmSync(store, { recursive: true, force: true });
    }
  }, 300_000);
});
