// The bash tool's command line reaches the pipeline (routing by program and
// subcommand); other tools' arguments do not pass for a command.
import { afterEach, describe, expect, it } from 'vitest';
import type { CompressCall } from '../../src/adapters/dsh-ports.js';
import { fakeServices, headTail } from '../support/dsh-fakes.js';
import { buildLog, createHarness, squeezePlugin, type Harness } from '../support/dsh-harness.js';

let h: Harness;
afterEach(() => h?.close());

describe('squeeze/dsh routing hints', () => {
  it("passes bash's command argument as the command option, and nothing for other tools", async () => {
    const calls: CompressCall[] = [];
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(fakeServices({
      squeeze: { compress: (text, call) => (calls.push(call), headTail(text)) },
    })), { logFile: '' });
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
