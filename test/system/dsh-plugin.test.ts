// The DSH plugin on the real harness tool pipeline (published @deepseek-ai/*
// packages): what it compresses, what it must leave exactly alone, and how it
// fails open.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import * as SpillPolicy from '@deepseek-ai/dsh-spill-policy';
import type { PostToolDecision } from '@deepseek-ai/dsh-tools';
import type { ServiceFactory } from '../../src/adapters/dsh/plugin.js';
import { fakeServices } from '../support/dsh-fakes.js';
import {
  buildLog,
  CORE,
  createHarness,
  spillFiles,
  squeezePlugin,
  textOf,
  type Harness,
} from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

let h: Harness;
afterEach(() => h?.close());

async function setup(
  config: Record<string, unknown> = {},
  factory: ServiceFactory = CORE,
  harness?: Parameters<typeof createHarness>[0],
) {
  h = await createHarness(harness);
  const fiber = await h.ctx.plugin(squeezePlugin(factory), { logFile: '', ...config });
  return fiber;
}

describe('squeeze/dsh on the real tool pipeline', () => {
  it('compresses a big bash result, marks it, and ccr_retrieve returns the original bytes', async () => {
    await setup();
    const original = buildLog(600);
    h.tool('bash', original);
    const result = await h.call('bash');
    expect(result.isError).toBe(false);
    const shown = textOf(result);
    expect(bytes(shown)).toBeLessThan(bytes(original));
    const id = id24(original);
    expect(shown).toContain(`<<<CCR:${id}|terminal|${bytes(original)}>>>`);
    // the harness spill store got a copy too, and its locator is in the notice
    const spilled = spillFiles(h).find((f) => f.text === original);
    expect(spilled).toBeDefined();
    expect(shown).toContain(spilled!.path);

    const back = await h.call('ccr_retrieve', { hash: id });
    expect(back.isError).toBe(false);
    expect(textOf(back)).toBe(original);
    expect((back as unknown as { value: { text: string } }).value.text).toBe(original);
    expect(h.messages('info')).toContain(`ccr: compressed bash terminal ${bytes(original)} -> ${id}`);
    expect(h.messages('info')).toContain(`ccr: retrieved ${id}`);
  });

  it('retrieves a line range and a grep', async () => {
    await setup();
    const original = buildLog(600);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    const id = /<<<CCR:([0-9a-f]{24})\|/.exec(shown)![1]!;
    const lines = original.split('\n');
    // a range is the exact bytes of those lines (line ends included), numbered from 1
    expect(textOf(await h.call('ccr_retrieve', { hash: id, range: { start: 101, count: 3 } }))).toBe(
      `${lines.slice(100, 103).join('\n')}\n`,
    );
    expect(textOf(await h.call('ccr_retrieve', { hash: id, range: { start: 599, count: 50 } }))).toBe(
      lines.slice(598).join('\n'),
    );
    expect(textOf(await h.call('ccr_retrieve', { hash: id, range: { start: 591 } }))).toBe(lines.slice(590).join('\n'));
    const zero = await h.call('ccr_retrieve', { hash: id, range: { start: 0, count: 3 } });
    expect(zero.isError).toBe(true);
    expect(textOf(zero)).toMatch(/range start 0 is not a line number: lines are numbered from 1/);
    const errors = textOf(await h.call('ccr_retrieve', { hash: id, grep: '^(ERROR|    caused by)' }));
    const at = lines.findIndex((l) => l.startsWith('ERROR'));
    expect(errors).toBe(`${at + 1}: ${lines[at]}\n${at + 2}: ${lines[at + 1]}`);
  });

  it('leaves the last-resort cap to spill-policy when the compressed result is still too big', async () => {
    // a compressor that only halves the text: still over 50,000 bytes
    const halve = fakeServices({
      squeeze: {
        compress: (text) => {
          const output = text.slice(0, Math.floor(text.length / 2));
          const tokens = (t: string) => Math.ceil(t.length / 3); // the stand-in's estimator
          return {
            output,
            outcome: 'compressed',
            kind: 'log',
            level: 'lossless',
            tokensIn: tokens(text),
            tokensOut: tokens(output),
            bytesIn: bytes(text),
            bytesOut: bytes(output),
            omitted: {},
            omissions: [],
            id: null,
            backend: 'js',
            ms: 0,
          };
        },
      },
    });
    await setup({}, halve);
    const original = buildLog(3000);
    expect(bytes(original) / 2).toBeGreaterThan(50000);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    expect(bytes(shown)).toBeLessThanOrEqual(50000);
    expect(shown).toContain('Full formatted result stored at:');
    // our marker sits in the tail of the capped text, so the original stays reachable
    expect(shown).toContain(`<<<CCR:${id24(original)}|terminal|`);
  });

  it('sits inside spill-policy whatever the load order (spill-policy prepends, squeeze does not)', async () => {
    await setup({}, CORE, { spillPolicy: false });
    await h.ctx.plugin(SpillPolicy, { maxInlineBytes: 50000 }); // loaded after squeeze
    const original = buildLog(3000);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    // squeeze saw the original (not spill-policy's head/tail preview) and its output fit under the cap
    expect(shown).toContain(`<<<CCR:${id24(original)}|terminal|${bytes(original)}>>>`);
    expect(shown).not.toContain('Full formatted result stored at:');
    expect(textOf(await h.call('ccr_retrieve', { hash: id24(original), range: { start: 1, count: 5 } }))).toBe(
      `${original.split('\n').slice(0, 5).join('\n')}\n`,
    );
  });

  describe('comes out exactly as it went in', () => {
    it('an under-threshold result', async () => {
      await setup();
      h.tool('bash', 'ok\n'.repeat(100));
      expect(textOf(await h.call('bash'))).toBe('ok\n'.repeat(100));
    });

    it('an exempt tool, an excluded tool, a non-target tool and a failure with compressFailures off', async () => {
      await setup({ compressFailures: false, exclude: ['grep'], autoExpand: true, autoExpandLimitBytes: 1 << 20 });
      const original = buildLog(600);
      h.tool('grep', original);
      expect(textOf(await h.call('grep'))).toBe(original);
      expect(h.messages('info').filter((m) => m.includes(' -> '))).toEqual([]); // not even stored
      h.tool('write', original);
      h.tool('my_tool', original);
      h.tool('bash', original, { fail: true });
      expect(textOf(await h.call('write'))).toBe(original);
      expect(textOf(await h.call('my_tool'))).toBe(original);
      const failed = await h.call('bash');
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toBe(`Error: ${original}`);
    });

    it('a value-carrying decision: passed through as the same object', async () => {
      await setup();
      const original = buildLog(600);
      h.tool('bash', original);
      const replacement = { kind: 'accept', value: 'small' } as PostToolDecision;
      let seen: PostToolDecision | undefined;
      h.ctx.on('tools/post-execute', async () => replacement); // inner to squeeze
      h.ctx.on('tools/post-execute', async (_e, _r, next) => (seen = await next()), { prepend: true }); // outer
      const result = await h.call('bash');
      expect(seen).toBe(replacement);
      expect(textOf(result)).toBe('small');
    });

    it('an unchanged accept is returned as the downstream object itself', async () => {
      await setup();
      h.tool('bash', 'short');
      const inner = { kind: 'accept' } as PostToolDecision;
      let seen: PostToolDecision | undefined;
      h.ctx.on('tools/post-execute', async () => inner);
      h.ctx.on('tools/post-execute', async (_e, _r, next) => (seen = await next()), { prepend: true });
      await h.call('bash');
      expect(seen).toBe(inner);
    });

    it('a Code-Mode sub-call (exec.parent set)', async () => {
      await setup();
      const original = buildLog(600);
      h.tool('bash', original);
      const result = await h.call('bash', {}, { parent: Symbol('run_code') });
      expect(textOf(result)).toBe(original);
    });

    it('image and mixed content', async () => {
      await setup();
      const image = { type: 'image', attachment: { id: 'att-1', mediaType: 'image/png', bytes: 123456 } };
      const big = buildLog(600);
      h.tool('read', () => [image]);
      h.tool('bash', () => [{ type: 'text', text: big }, image]);
      expect((await h.call('read')).content).toEqual([image]);
      expect((await h.call('bash')).content).toEqual([{ type: 'text', text: big }, image]);
    });
  });

  it('keeps the downstream additionalContexts on a compressed result', async () => {
    await setup();
    const original = buildLog(600);
    h.tool('bash', original);
    const note = {
      id: 'm-1',
      role: 'user',
      content: [{ type: 'text', text: 'remember the flaky test' }],
      source: { kind: 'plugin', plugin: 'test' },
    };
    h.ctx.on(
      'tools/post-execute',
      async () => ({ kind: 'accept', additionalContexts: [note] }) as unknown as PostToolDecision,
    );
    const result = await h.call('bash');
    expect(textOf(result)).toContain('<<<CCR:');
    expect(result.additionalContexts).toEqual([note]);
  });

  it('fails open: a compressor that throws (caught by the listener) leaves the call successful with its original content, one warning', async () => {
    const throwing = fakeServices({
      squeeze: {
        compress: () => {
          throw new Error('processor exploded');
        },
      },
    });
    await setup({}, throwing);
    const original = buildLog(600);
    h.tool('bash', original);
    const result = await h.call('bash');
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe(original);
    const warnings = h.messages('warn').filter((m) => m.includes('processor exploded'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('keeping the original content');
  });

  it('passes through when the original cannot be kept (store put fails)', async () => {
    const broken = fakeServices({
      store: {
        put: () => {
          throw new Error('disk full');
        },
        get: () => ({ found: false, reason: 'unknown' }),
      },
    });
    await setup({}, broken);
    const original = buildLog(600);
    h.tool('bash', original);
    expect(textOf(await h.call('bash'))).toBe(original);
    expect(h.messages('warn').some((m) => m.includes('disk full'))).toBe(true);
  });

  it('without a spill store the original is kept for ccr_retrieve only', async () => {
    await setup({}, fakeServices(), { spillStore: false, spillPolicy: false });
    const original = buildLog(600);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    expect(shown).toContain(`<<<CCR:${id24(original)}|terminal|`);
    expect(spillFiles(h)).toEqual([]);
    expect(textOf(await h.call('ccr_retrieve', { hash: id24(original) }))).toBe(original);
  });

  it('does not spill `read` results, and a read of our own spill file passes through', async () => {
    await setup();
    const original = buildLog(600);
    h.tool('bash', original);
    h.tool('read', original);
    const shownRead = textOf(await h.call('read', { path: '/work/some/file.log' }));
    expect(shownRead).toContain(`<<<CCR:${id24(original)}|file|`);
    expect(spillFiles(h)).toEqual([]);
    const shownBash = textOf(await h.call('bash'));
    const locator = spillFiles(h).find((f) => f.text === original)!.path;
    expect(shownBash).toContain(locator);
    expect(textOf(await h.call('read', { path: locator }))).toBe(original);
  });

  it('retainOriginal: false compresses without keeping anything (no marker, no spill file, no store entry)', async () => {
    await setup({ retainOriginal: false });
    const original = buildLog(600);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    expect(bytes(shown)).toBeLessThan(bytes(original));
    expect(shown).not.toContain('<<<CCR:');
    expect(spillFiles(h)).toEqual([]);
    expect((await h.call('ccr_retrieve', { hash: id24(original) })).isError).toBe(true);
    expect(h.messages('info')).toContain(`ccr: compressed bash terminal ${bytes(original)} (original not retained)`);
  });

  it('enabled: false compresses nothing but keeps ccr_retrieve for markers already in a transcript', async () => {
    await setup({ enabled: false });
    const original = buildLog(600);
    h.tool('bash', original);
    expect(textOf(await h.call('bash'))).toBe(original);
    expect(h.ctx.tools.get('ccr_retrieve')).toBeDefined();
    expect(h.messages('info').filter((m) => m.startsWith('ccr: activated'))).toEqual([]);
  });

  it('rejects bad config at load, naming the key', async () => {
    h = await createHarness();
    await expect(h.ctx.plugin(squeezePlugin(), { thresholdBytes: -1 })).rejects.toThrow(/thresholdBytes/);
    await expect(h.ctx.plugin(squeezePlugin(), { minTokens: 5000, maxTokens: 100 })).rejects.toThrow(/minTokens/);
    await expect(h.ctx.plugin(squeezePlugin(), { targetTokens: 20000 })).rejects.toThrow(/targetTokens/);
    await expect(h.ctx.plugin(squeezePlugin(), { level: 'extreme' as never })).rejects.toThrow(/level/);
    // A page of a few bytes would take an original thousands of calls: 0 (no paging) or at least 1,024.
    for (const retrievePageBytes of [1, 1023]) {
      await expect(h.ctx.plugin(squeezePlugin(), { retrievePageBytes })).rejects.toThrow(
        /retrievePageBytes' must be 0 \(no paging\) or at least 1,024/,
      );
    }
  });

  it('leaks nothing after the plugin is disposed', async () => {
    h = await createHarness();
    const hooks = (event: string) =>
      (h.ctx.events as unknown as { _hooks: Record<string, unknown[]> })._hooks[event]?.length ?? 0;
    const preStepBefore = hooks('agent/pre-step');
    const fiber = await h.ctx.plugin(squeezePlugin(), { logFile: '', contextEngine: true });
    const original = buildLog(600);
    h.tool('bash', original);
    expect(h.ctx.tools.get('ccr_retrieve')).toBeDefined();
    expect(hooks('agent/pre-step')).toBe(preStepBefore + 1);
    const withPlugin = hooks('tools/post-execute');
    await fiber.dispose();
    expect(hooks('tools/post-execute')).toBe(withPlugin - 1);
    expect(hooks('agent/pre-step')).toBe(preStepBefore);
    expect(h.ctx.tools.get('ccr_retrieve')).toBeUndefined();
    expect(textOf(await h.call('bash'))).toBe(original);
    // loads again cleanly (no duplicate tool, no second listener left over)
    await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    expect(hooks('tools/post-execute')).toBe(withPlugin);
  });
});
