// The plugin inside the full agent loop, a scripted adapter standing in for
// the model: what the model's requests actually contain.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Context } from '@deepseek-ai/cordis';
import type { CompressCall } from '../../src/adapters/dsh/ports.js';
import { fakeServices, headTail } from '../support/dsh-fakes.js';
import {
  buildLog,
  createAgentHarness,
  createHarness,
  squeezePlugin,
  toolResultsOf,
  type AgentHarness,
  type Harness,
  type Reply,
} from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);

let h: AgentHarness | Harness | undefined;
afterEach(() => h?.close());

/** A user turn asks for `bash`; its result ends the turn. */
const bashPerTurn = (requests: readonly unknown[]): Reply => {
  const last = (requests.at(-1) as { messages: { content: { type: string }[] }[] }).messages.at(-1)!;
  return last.content[0]!.type === 'tool-result' ? { text: 'noted' } : { calls: [{ name: 'bash', args: {} }] };
};

describe('squeeze/dsh in the agent loop', () => {
  it('the model sees the compressed result, and ccr_retrieve brings the original back', async () => {
    const original = buildLog(400);
    expect(Buffer.byteLength(original)).toBeLessThan(50000); // under spill-policy's cap, so it comes back whole
    let marker: string | undefined;
    const ah = await createAgentHarness(
      (requests) => {
        if (requests.length === 1) return { calls: [{ name: 'bash', args: {} }] };
        if (requests.length === 2) {
          marker = /<<<CCR:([0-9a-f]{24})\|/.exec(toolResultsOf(requests[1]!).at(-1)!)?.[1];
          return { calls: [{ name: 'ccr_retrieve', args: { hash: marker } }] };
        }
        return { text: 'done' };
      },
      {
        beforeAgent: async (harness) => {
          harness.tool('bash', original);
          await harness.ctx.plugin(squeezePlugin(), { logFile: '' });
        },
      },
    );
    h = ah;
    await ah.say('build it');
    expect(ah.requests).toHaveLength(3);
    const compressed = toolResultsOf(ah.requests[1]!).at(-1)!;
    expect(compressed.length).toBeLessThan(original.length);
    expect(compressed).toContain(`<<<CCR:${id24(original)}|terminal|${Buffer.byteLength(original)}>>>`);
    expect(marker).toBe(id24(original));
    const retrieved = toolResultsOf(ah.requests[2]!).at(-1)!;
    expect(retrieved).toBe(original);
  });

  it('with the context engine on, the measured fill of the host-reported window picks the level', async () => {
    const seen: (number | undefined)[] = [];
    const recording = fakeServices({
      squeeze: {
        compress: (text: string, call: CompressCall) => {
          // the listener's calls: the engine's own (a replacement's form) carry no conversation
          if (call.conversation !== undefined) seen.push(call.contextFill);
          return headTail(text);
        },
      },
    });
    const ah = await createAgentHarness(bashPerTurn, {
      contextWindow: 2000,
      beforeAgent: async (harness) => {
        harness.tool('bash', buildLog(400));
        await harness.ctx.plugin(squeezePlugin(recording), { logFile: '', contextEngine: true });
      },
    });
    h = ah;
    await ah.say('first');
    await ah.say('second');
    expect(seen).toHaveLength(2);
    // measured at each pre-step; by the second turn against the adapter's
    // 2,000-token window (the 128,000 default would make it 64 times smaller)
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[1]).toBeGreaterThan(0.05);
    expect(seen[1]).toBeGreaterThan(seen[0]!);
  });

  it('with the engine off, no fill is passed and no pre-step listener is added', async () => {
    const seen: (number | undefined)[] = [];
    const recording = fakeServices({
      squeeze: {
        compress: (text: string, call: CompressCall) => {
          seen.push(call.contextFill);
          return headTail(text);
        },
      },
    });
    const preStepHooks = { before: 0, after: 0 };
    const hooks = (ctx: Context) =>
      (ctx.events as unknown as { _hooks: Record<string, unknown[]> })._hooks['agent/pre-step']?.length ?? 0;
    const ah = await createAgentHarness(bashPerTurn, {
      beforeAgent: async (harness) => {
        harness.tool('bash', buildLog(400));
        preStepHooks.before = hooks(harness.ctx);
        await harness.ctx.plugin(squeezePlugin(recording), { logFile: '' });
        preStepHooks.after = hooks(harness.ctx);
      },
    });
    h = ah;
    await ah.say('first');
    expect(seen).toEqual([undefined]);
    expect(preStepHooks.after).toBe(preStepHooks.before);
  });

  it('keeps one engine per agent: each call gets the fill of its own conversation', async () => {
    const seen: (number | undefined)[] = [];
    const recording = fakeServices({
      squeeze: {
        compress: (text: string, call: CompressCall) => {
          seen.push(call.contextFill);
          return headTail(text);
        },
      },
    });
    const harness = await createHarness();
    h = harness;
    harness.tool('bash', buildLog(400));
    await harness.ctx.plugin(squeezePlugin(recording), { logFile: '', contextEngine: true, contextWindowTokens: 1000 });
    const agent = (id: string, historyChars: number) => ({
      session: {
        header: { id },
        deriveMessages: () => [Object.freeze({ content: [{ type: 'text', text: 'x'.repeat(historyChars) }] })],
        requestContext: () => undefined,
      },
    });
    const full = agent('full', 2400);
    const empty = agent('empty', 30);
    for (const a of [full, empty]) {
      await harness.ctx.waterfall(
        'agent/pre-step',
        { agent: a, messages: [], turn: 1, step: 1, signal: new AbortController().signal } as never,
        async () => ({ kind: 'enter', messages: [] }) as never,
      );
    }
    await harness.call('bash', {}, { agent: full });
    await harness.call('bash', {}, { agent: empty });
    await harness.call('bash', {}, { agent: undefined });
    // the stand-in estimator prices 3 characters a token, against a 1,000-token window
    expect(seen).toEqual([0.8, 0.01, undefined]);
  });
});
