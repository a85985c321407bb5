// The plugin on squeeze's real pipeline: failures inside it stay contained,
// and the levels reach the model (the emergency level is the one-line
// preview plus the marker).
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processors } from '../../src/processors/index.js';
import { buildLog, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);

let h: Harness | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  h?.close();
});

describe('squeeze/dsh on the real pipeline', () => {
  it('a processor that throws leaves the call successful with its original content, and one warning', async () => {
    for (const processor of Object.values(processors)) {
      vi.spyOn(processor!, 'process').mockImplementation(() => {
        throw new Error('processor exploded');
      });
    }
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    const original = buildLog(600);
    h.tool('bash', original);
    const result = await h.call('bash');
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe(original);
    const warnings = h.messages('warn').filter((m) => m.includes('processor exploded'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^squeeze: compressing bash failed .*keeping the original content$/);
  });

  it('level emergency gives the one-line typed preview, then the marker', async () => {
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(), { logFile: '', level: 'emergency' });
    const original = buildLog(600);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    const [first] = shown.split('\n');
    expect(first).toMatch(/^\[terminal:exit \? \| 601 lines \| INFO {2}\[worker-\d\] compiled module 0 /);
    expect(shown).toContain(`\n<<<CCR:${id24(original)}|terminal|${Buffer.byteLength(original)}>>>\n`);
    expect(Buffer.byteLength(shown)).toBeLessThan(2000);
  });

  it('the default level keeps the evidence: the error line reaches the model', async () => {
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    const original = buildLog(3000);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    expect(Buffer.byteLength(shown)).toBeLessThan(Buffer.byteLength(original) / 2);
    expect(shown).toContain('ERROR: src/server/router.ts:88:14 TypeError');
  });

  it('references repeats only within one conversation (one pipeline per agent)', async () => {
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    const original = buildLog(600);
    h.tool('bash', original);
    const agent = (id: string) => ({ session: { header: { id } } });
    const alice = agent('alice');
    const bob = agent('bob');
    const repeated = /repeated verbatim from an earlier tool result|identical to an earlier tool result/;
    expect(textOf(await h.call('bash', {}, { agent: alice }))).not.toMatch(repeated);
    expect(textOf(await h.call('bash', {}, { agent: alice }))).toMatch(repeated); // alice saw it before
    expect(textOf(await h.call('bash', {}, { agent: bob }))).not.toMatch(repeated); // bob never did
  });
});
