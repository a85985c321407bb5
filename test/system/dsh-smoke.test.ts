// The plugin's smoke list, item by item, on the real harness with the ledger
// strings asserted byte for byte: pass-through under the threshold and a
// compressed case, marker bytes and retrieval, auto-expand, exempt tools, TTL
// and budget eviction, every CCR type's gate, the context engine.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool } from '@deepseek-ai/dsh-tools';
import { decide, eligible, thresholdTokens } from '../../src/adapters/dsh/context-engine.js';
import { contentBytes } from '../../src/adapters/dsh/gate.js';
import { BUNDLE_VERSION } from '../../src/adapters/dsh/plugin.js';
import { buildLog, createAgentHarness, createHarness, squeezePlugin, textOf, toolResultsOf, type Harness, type Reply } from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');


let h: Harness | undefined;
afterEach(() => h?.close());

async function setup(config: Record<string, unknown> = {}) {
  h = await createHarness();
  await h.ctx.plugin(squeezePlugin(), { logFile: '', ...config });
  return h;
}

/** The ledger lines (the plugin's info logs that start with `ccr:`). */
const ledger = (harness: Harness) => harness.messages('info').filter((m) => m.startsWith('ccr: '));

describe('plugin smoke', () => {
  it('under-threshold passes through AND an oversized result is compressed (not vacuously green)', async () => {
    const harness = await setup();
    harness.tool('bash', 'x'.repeat(900));
    harness.tool('grep', buildLog(600));
    expect(textOf(await harness.call('bash'))).toBe('x'.repeat(900));
    const compressed = textOf(await harness.call('grep'));
    expect(compressed).not.toBe(buildLog(600));
    expect(compressed).toContain('<<<CCR:');
  });

  it('oversized bash: exact marker bytes, round-trip retrieval', async () => {
    const harness = await setup();
    const original = buildLog(800);
    harness.tool('bash', original);
    const shown = textOf(await harness.call('bash'));
    const marker = `<<<CCR:${id24(original)}|terminal|${bytes(original)}>>>`;
    expect(shown).toContain(marker);
    expect(marker).toMatch(/^<<<CCR:[0-9a-f]{24}\|[a-z]+\|\d+>>>$/);
    expect(textOf(await harness.call('ccr_retrieve', { hash: id24(original) }))).toBe(original);
  });

  it('auto-expand: stored, the full content passes, the ledger says stored', async () => {
    const harness = await setup({ autoExpand: true, autoExpandLimitBytes: 100000 });
    const original = buildLog(300);
    harness.tool('bash', original);
    const result = await harness.call('bash');
    expect(textOf(result)).toBe(original);
    expect(ledger(harness)).toContain(`ccr: stored bash terminal ${bytes(original)} -> ${id24(original)}`);
    expect(textOf(await harness.call('ccr_retrieve', { hash: id24(original) }))).toBe(original);
  });

  it('exempt identity: the very same content, nothing stored', async () => {
    const harness = await setup();
    const original = buildLog(800);
    harness.tool('edit', original);
    harness.tool('ask_user_question', original);
    expect(textOf(await harness.call('edit'))).toBe(original);
    expect(textOf(await harness.call('ask_user_question'))).toBe(original);
    expect(ledger(harness).filter((l) => l.includes(' -> '))).toEqual([]);
  });

  it('ledger strings, byte for byte', async () => {
    const harness = await setup();
    const original = buildLog(800);
    harness.tool('bash', original);
    await harness.call('bash');
    await harness.call('ccr_retrieve', { hash: id24(original) });
    const missing = 'f'.repeat(24);
    const miss = await harness.call('ccr_retrieve', { hash: missing });
    expect(miss.isError).toBe(true);
    expect(textOf(miss)).toMatch(/Re-run the original tool/);
    expect(ledger(harness)).toEqual([
      `ccr: activated (bundle ${BUNDLE_VERSION}, targets 8, budget 268435456)`,
      `ccr: compressed bash terminal ${bytes(original)} -> ${id24(original)}`,
      `ccr: retrieved ${id24(original)}`,
      `ccr: retrieval miss ${missing} (unknown)`,
    ]);
  });

  it('the ledger file gets the [ISO] message lines', async () => {
    h = await createHarness();
    const file = join(h.dir, 'ledger', 'ccr.log');
    await h.ctx.plugin(squeezePlugin(), { logFile: file });
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] ccr: activated \(bundle /);
  });

  it('all seven classifier types (and default) hit their multiplier gates', async () => {
    const threshold = 100;
    const harness = await setup({
      thresholdBytes: threshold,
      inlineThresholdBytes: 0,
      autoExpand: true,
      autoExpandLimitBytes: 1 << 20,
      targets: ['bash', 'grep', 'glob', 'read', 'web_fetch', 'api', 'notes'],
    });
    // a text whose content (as the model gets it) is exactly `size` bytes
    const sized = (size: number, make: (pad: string) => string, prefix = '') => {
      for (let n = 0; n < size; n++) {
        const text = make('a'.repeat(n));
        const got = contentBytes([{ type: 'text', text: prefix + text }]);
        if (got === size) return text;
        if (got > size) break;
      }
      throw new Error(`no text of ${size} bytes`);
    };
    const cases = [
      { tool: 'bash', type: 'terminal', multiplier: 1, make: (p: string) => `line ${p}` },
      { tool: 'grep', type: 'grep', multiplier: 2, make: (p: string) => `a.ts:1:${p}` },
      { tool: 'glob', type: 'paths', multiplier: 2, make: (p: string) => `src/${p}.ts` },
      { tool: 'read', type: 'file', multiplier: 1, make: (p: string) => `// ${p}` },
      { tool: 'web_fetch', type: 'web', multiplier: 2, make: (p: string) => `<p>${p}</p>` },
      { tool: 'api', type: 'json', multiplier: 1, make: (p: string) => `{"k":"${p}"}` },
      { tool: 'notes', type: 'default', multiplier: 1, make: (p: string) => `note ${p}` },
      { tool: 'bash', type: 'error', multiplier: 8, make: (p: string) => `failed ${p}`, fail: true },
    ];
    for (const c of cases) {
      const limit = threshold * c.multiplier;
      const prefix = c.fail ? 'Error: ' : '';
      for (const [size, gated] of [
        [limit, false],
        [limit + 1, true],
      ] as const) {
        const text = sized(size, c.make, prefix);
        const toolName = c.tool;
        const dispose = harness.ctx.tools.register(
          defineTool({
            name: toolName,
            description: 'sized',
            parameters: {},
            output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
            async execute() {
              if (c.fail) throw new Error(text);
              return text;
            },
          }),
        );
        const before = ledger(harness).length;
        await harness.call(toolName);
        dispose();
        const added = ledger(harness).slice(before);
        const full = prefix + text;
        expect(added, `${c.type} at ${size} bytes`).toEqual(
          gated ? [`ccr: stored ${toolName} ${c.type} ${bytes(full)} -> ${id24(full)}`] : [],
        );
      }
    }
  });

  describe('context engine', () => {
    it('flag off: inert (no pre-step listener, no fill)', async () => {
      h = await createHarness();
      const hooks = () => (h!.ctx.events as unknown as { _hooks: Record<string, unknown[]> })._hooks['agent/pre-step']?.length ?? 0;
      const before = hooks();
      await h.ctx.plugin(squeezePlugin(), { logFile: '' });
      expect(hooks()).toBe(before);
    });

    it('decision math: threshold, protect windows, middle only', () => {
      expect(thresholdTokens(128000, 30)).toBe(38400);
      const records = [1, 2, 3, 4, 5, 6, 7].map((turn) => ({ turn }));
      expect(eligible(records, 7, 2, 2).map((r) => r.turn)).toEqual([3, 4, 5]);
      expect(eligible(records, 7, 0, 0).map((r) => r.turn)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(eligible(records, 4, 2, 2)).toEqual([]);
      const config = { contextEngineThresholdPct: 30, protectFirstTurns: 2, protectLastTurns: 2, contextWindowTokens: 1000 };
      expect(decide(records, 7, 299, 1000, config)).toBeUndefined(); // under the threshold
      expect(decide(records, 7, 300, 1000, config)?.map((r) => r.turn)).toEqual([3, 4, 5]);
      expect(decide(records, 4, 900, 1000, config)).toBeUndefined(); // crossed, but no middle
    });

    it('flag on: post-execute decisions unchanged, head and tail protected, the middle archived and retrievable', async () => {
      const outputs = [1, 2, 3, 4, 5].map((turn) => `turn ${turn}: ok`);
      let turn = 0;
      const script = (requests: readonly { messages: { content: { type: string }[] }[] }[]): Reply => {
        const last = requests.at(-1)!.messages.at(-1)!;
        return last.content[0]!.type === 'tool-result' ? { text: 'noted' } : { calls: [{ name: 'bash', args: {} }] };
      };
      const agentHarness = await createAgentHarness(script as never, {
        beforeAgent: async (harness) => {
          harness.tool('bash', () => [{ type: 'text', text: outputs[turn++]! }]);
          await harness.ctx.plugin(squeezePlugin(), {
            logFile: '',
            contextEngine: true,
            contextEngineThresholdPct: 0,
            protectFirstTurns: 2,
            protectLastTurns: 2,
          });
        },
      });
      h = agentHarness;
      for (let i = 0; i < 5; i++) await agentHarness.say(`turn ${i + 1}`);
      // every result reached the model exactly as the tool gave it
      expect(toolResultsOf(agentHarness.requests.at(-1)!)).toEqual(outputs);
      // at turn 5 only turn 3 is in the middle (past 2 head turns, at or before 5 - 2)
      expect(ledger(agentHarness).filter((l) => l.startsWith('ccr: engine'))).toEqual(['ccr: engine archived 1 results']);
      expect(textOf(await agentHarness.call('ccr_retrieve', { hash: id24(outputs[2]!) }))).toBe(outputs[2]);
      for (const kept of [0, 1, 3, 4]) {
        expect((await agentHarness.call('ccr_retrieve', { hash: id24(outputs[kept]!) })).isError).toBe(true);
      }
    });

    it('flag on: results already compressed and stored are archived by id, counted once', async () => {
      const outputs = [1, 2, 3, 4, 5, 6].map((turn) => buildLog(600, turn));
      let turn = 0;
      const script = (requests: readonly { messages: { content: { type: string }[] }[] }[]): Reply => {
        const last = requests.at(-1)!.messages.at(-1)!;
        return last.content[0]!.type === 'tool-result' ? { text: 'noted' } : { calls: [{ name: 'bash', args: {} }] };
      };
      const agentHarness = await createAgentHarness(script as never, {
        beforeAgent: async (harness) => {
          harness.tool('bash', () => [{ type: 'text', text: outputs[turn++]! }]);
          await harness.ctx.plugin(squeezePlugin(), { logFile: '', contextEngine: true, contextEngineThresholdPct: 0 });
        },
      });
      h = agentHarness;
      for (let i = 0; i < 6; i++) await agentHarness.say(`turn ${i + 1}`);
      // turn 5 archives turn 3, turn 6 archives turn 4; each result was stored when it was compressed
      expect(ledger(agentHarness).filter((l) => l.startsWith('ccr: engine'))).toEqual([
        'ccr: engine archived 1 results',
        'ccr: engine archived 1 results',
      ]);
      expect(ledger(agentHarness).filter((l) => l.startsWith('ccr: compressed'))).toHaveLength(6);
    });
  });
});
