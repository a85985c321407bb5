// The bash tool's command line reaches the pipeline (routing by program and
// subcommand); other tools' arguments do not pass for a command.
import { afterEach, describe, expect, it } from 'vitest';
import type { CompressCall } from '../../src/adapters/dsh/ports.js';
import { fakeServices, headTail } from '../support/dsh-fakes.js';
import { createEstimator } from '../../src/engine/index.js';
import { buildLog, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

let h: Harness;
afterEach(() => h?.close());

describe('squeeze/dsh routing hints and ceiling', () => {
  it('keeps what the model sees, notice and spill location included, within maxTokens', async () => {
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(), { logFile: '', minTokens: 100, targetTokens: 300, maxTokens: 600 });
    const output = buildLog(3000);
    h.tool('bash', output);
    const shown = textOf(await h.call('bash', { command: 'npm test 2>&1' }));
    expect(shown).toContain('<<<CCR:');
    expect(shown).toContain('also saved:');
    expect(createEstimator().estimate(shown)).toBeLessThanOrEqual(600);
  });

  it("passes bash's command argument as the command option, and nothing for other tools", async () => {
    const calls: CompressCall[] = [];
    h = await createHarness();
    await h.ctx.plugin(
      squeezePlugin(
        fakeServices({
          squeeze: {
            compress: (text, call) => {
              calls.push(call);
              return headTail(text);
            },
          },
        }),
      ),
      { logFile: '' },
    );
    const output = buildLog(600);
    h.tool('bash', output);
    h.tool('read', output);
    await h.call('bash', { command: 'cd web && git -C . --no-pager diff HEAD~3 | head -100', description: 'diff' });
    await h.call('read', { path: 'build.log', command: 'not a shell command' });
    await h.call('bash', { command: '   ' });
    expect(calls.map((call) => [call.toolName, call.command])).toEqual([
      ['bash', 'cd web && git -C . --no-pager diff HEAD~3 | head -100'],
      ['read', undefined],
      ['bash', undefined],
    ]);
  });
});
