// A harness spill store whose save never settles (a wedged disk, a plugin
// bug): the tool call still answers, compressed and kept in the CCR store
// without the spill note, within the plugin's deadline, and the ledger says
// which way the result went.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SPILL_DEADLINE_MS } from '../../src/adapters/dsh/spill.js';
import { buildLog, createHarness, type Harness, squeezePlugin, textOf } from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);

let h: Harness | undefined;
afterEach(() => h?.close());

describe('a spill store that never answers', () => {
  it('the tool call answers after the deadline, compressed without the spill note, and the ledger says so', async () => {
    h = await createHarness({ spillStore: false });
    h.ctx.provide('spillStore', { saveText: () => new Promise(() => {}) });
    await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    const log = buildLog(600, 3);
    h.tool('bash', log);
    const started = performance.now();
    const shown = textOf(await h.call('bash'));
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThanOrEqual(SPILL_DEADLINE_MS - 50);
    expect(ms).toBeLessThan(SPILL_DEADLINE_MS + 8000);
    expect(shown).toContain(`<<<CCR:${id24(log)}|`);
    expect(shown).not.toContain('also saved');
    expect(h.messages('info')).toContain(
      `ccr: spill save for bash timed out after ${SPILL_DEADLINE_MS} ms; kept in the CCR store only -> ${id24(log)}`,
    );
    const back = await h.call('ccr_retrieve', { hash: id24(log) });
    expect(textOf(back)).toBe(log);
  }, 30_000);
});
