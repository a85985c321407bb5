// The plugin's smoke list, item by item, on the real harness with the ledger
// strings asserted byte for byte: pass-through under the threshold and a
// compressed case, marker bytes and retrieval, auto-expand, exempt tools, TTL
// and budget eviction, every CCR type's gate, the context engine.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool } from '@deepseek-ai/dsh-tools';
import { contentBytes } from '../../src/adapters/dsh/gate.js';
import { BUNDLE_VERSION } from '../../src/adapters/dsh/plugin.js';
import { buildLog, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

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
    const lines = ledger(harness);
    // issue 11: retrievals counted per tool, and the level they lower the tool's next results to
    const backOff = new RegExp(
      `^ccr: retrieval 1 of bash results this session \\(${id24(original)}\\); next bash results at (lossless|light|aggressive)$`,
    );
    expect(lines[3]).toMatch(backOff);
    expect(lines.filter((line) => !backOff.test(line))).toEqual([
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
      const hooks = () =>
        (h!.ctx.events as unknown as { _hooks: Record<string, unknown[]> })._hooks['agent/pre-step']?.length ?? 0;
      const before = hooks();
      await h.ctx.plugin(squeezePlugin(), { logFile: '' });
      expect(hooks()).toBe(before);
    });
  });
});
