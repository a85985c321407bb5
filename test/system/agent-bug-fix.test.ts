// A small bug fix by a scripted model in the full agent loop (LlmRuntime,
// SessionStore, AgentRegistry, AgentLoop) over the real DSH tools, with
// squeeze and spill-policy in the pipeline: grep for the function, read its
// file, run the tests (they fail), edit the bug out with a line taken from the
// read, rerun (they pass). What is asserted is what the model received.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateOptions } from '@deepseek-ai/dsh-llm';
import {
  createAgentHarness,
  squeezePlugin,
  toolResultsOf,
  type AgentHarness,
  type Reply,
} from '../support/dsh-harness.js';
import { pluginConfig, SQUEEZED, tempDir } from '../support/dsh-squeezed.js';
import { mountToolPlugins } from '../support/dsh-tools.js';
import { nodeProject } from '../support/failing-projects.js';

let h: AgentHarness | undefined;
let ws: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  h?.close();
  ws?.dispose();
});

/** The newest tool result the model got (the last request's last tool result). */
const lastResult = (requests: readonly GenerateOptions[]) => toolResultsOf(requests.at(-1)!).at(-1)!;

describe.each([undefined, 'aggressive'] as const)('a scripted bug fix through the agent loop, level %s', (level) => {
  it('grep, read, failing test run, edit from the read, passing rerun: each step sees what it needs', async () => {
    ws = tempDir('squeeze-agent-fix-');
    const dir = ws.dir;
    const [failure] = nodeProject(dir, { rounding: false });
    const file = join(dir, 'src/cart.js');
    const buggy = readFileSync(file, 'utf8').split('\n')[1]!;
    expect(buggy).toContain('/ 1000');
    const test = { command: 'npm test', description: 'Run the tests', workdir: dir, timeoutMs: 120_000 };
    // What the scripted model took from its inputs, to assert on afterwards.
    const took: { path?: string | undefined; line?: number; oldString?: string | undefined } = {};
    const script = (requests: readonly GenerateOptions[]): Reply => {
      switch (requests.length) {
        case 1:
          return { calls: [{ name: 'grep', args: { pattern: 'const discount', path: dir } }] };
        case 2: {
          // DSH grep: the file's path on its own line, then `Line N: text`
          const hit = /^(\S+)\nLine (\d+): /m.exec(lastResult(requests));
          took.path = hit?.[1];
          took.line = Number(hit?.[2]);
          return { calls: [{ name: 'read', args: { file_path: took.path } }] };
        }
        case 3:
          took.oldString = new RegExp(`^${took.line}: (.*)$`, 'm').exec(lastResult(requests))?.[1];
          return { calls: [{ name: 'bash', args: test }] };
        case 4:
          return {
            calls: [
              {
                name: 'edit',
                args: {
                  file_path: took.path,
                  old_string: took.oldString,
                  new_string: took.oldString!.replace('/ 1000', '/ 100'),
                },
              },
            ],
          };
        case 5:
          return { calls: [{ name: 'bash', args: test }] };
        default:
          return { text: 'Fixed: the discount divided by 1000 instead of 100.' };
      }
    };
    h = await createAgentHarness(script, {
      beforeAgent: async (harness) => {
        await mountToolPlugins(harness.ctx, { cwd: dir });
        await harness.ctx.plugin(squeezePlugin(), pluginConfig(level));
      },
    });
    await h.say('The bulk discount test fails. Find the bug and fix it.');

    const requests = h.requests;
    expect(requests).toHaveLength(6);
    const results = requests.slice(1).map((request) => toolResultsOf(request).at(-1)!);
    const [grep, read, failing, edit, passing] = results as [string, string, string, string, string];
    // 1. the grep hit: the file and line of the declaration
    expect(took.path).toBe(file);
    expect(grep).toContain(`${file}\nLine 2: export const discount = (amount, percent) =>`);
    // 2. the read shows that line verbatim, with its number: it became old_string
    expect(took.oldString).toBe(buggy);
    expect(read).toContain(`2: ${took.oldString}`);
    // 3. the failing run: squeeze compressed it (its notice is there) and kept the failing test's name, message and location
    expect(failing).toMatch(SQUEEZED);
    expect(failing).toContain(`not ok 241 - ${failure!.name}`);
    expect(failing).toContain(failure!.message);
    expect(failing).toContain(failure!.location);
    expect(failing).toContain('990 !== 900');
    expect(failing).toMatch(/# fail 1\b/);
    expect(failing).toMatch(/\[exit code: 1\]/);
    // 4. the edit went through, on the file
    expect(edit).not.toMatch(/error/i);
    expect(readFileSync(file, 'utf8')).toContain('Math.floor((amount * percent) / 100);');
    // 5. the rerun passes, and the model sees so
    expect(passing).toMatch(/# pass 241\b/);
    expect(passing).toMatch(/# fail 0\b/);
    expect(passing).not.toMatch(/not ok/);
    expect(passing).not.toMatch(/\[exit code: [1-9]/);
  });
});
