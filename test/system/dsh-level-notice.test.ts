// A level the plugin config forces and the result cannot keep (over maxTokens)
// is said in the model-facing result, within the ceiling; a level kept, or the
// automatic one, adds nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { levelNote } from '../../src/adapters/dsh/listener.js';
import { createEstimator } from '../../src/engine/index.js';
import { buildLog, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

async function run(config: Record<string, unknown>, lines: number): Promise<string> {
  h?.close();
  h = await createHarness();
  h.tool('bash', buildLog(lines));
  await h.ctx.plugin(squeezePlugin(), { logFile: '', ...config });
  return textOf(await h.call('bash', {}));
}

describe('a forced level the result cannot keep', () => {
  it('is said in the result, and the result stays within maxTokens', async () => {
    const text = await run({ level: 'lossless', maxTokens: 2000, targetTokens: 1000 }, 3000);
    expect(text).toMatch(
      /^\[squeeze: level lossless not kept: its output is over maxTokens; applied \w+(, then lines sampled to fit)?\]$/m,
    );
    expect(text).toMatch(/<<<CCR:[0-9a-f]{24}\|/);
    expect(createEstimator().estimate(text)).toBeLessThanOrEqual(2000);
  });

  it('adds nothing when the forced level is kept, or the level is automatic', async () => {
    expect(await run({ level: 'aggressive' }, 400)).not.toMatch(/not kept/);
    expect(await run({ maxTokens: 2000, targetTokens: 1000 }, 3000)).not.toMatch(/not kept/);
  });

  it('names the level asked for, why, and the level applied', () => {
    expect(levelNote({ level: 'light', levelNotKept: { requested: 'lossless', reason: 'over-max-tokens' } })).toBe(
      '[squeeze: level lossless not kept: its output is over maxTokens; applied light]',
    );
    expect(
      levelNote({ level: 'light', levelNotKept: { requested: 'aggressive', reason: 'preserved-item-lost' } }),
    ).toBe('[squeeze: level aggressive not kept: it would drop a preserved item; applied light]');
    expect(
      levelNote({ level: 'aggressive', levelNotKept: { requested: 'aggressive', reason: 'over-max-tokens' } }),
    ).toBe(
      '[squeeze: level aggressive not kept: its output is over maxTokens; applied aggressive, then lines sampled to fit]',
    );
    expect(levelNote({ level: 'light' })).toBeUndefined();
  });
});
