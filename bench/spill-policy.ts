// The incumbent: DeepSeek Harness's shipped spill-policy (50,000 bytes,
// head/tail preview + the full text in a spill file) applied to every result,
// run for real: Context, ToolRuntime, LocalSpillStore and SpillPolicy from npm.
// The tool is called `bash` because the policy skips `read` by design.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context } from '@deepseek-ai/cordis';
import LocalSpillStore from '@deepseek-ai/dsh-spill-local';
import * as SpillPolicy from '@deepseek-ai/dsh-spill-policy';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime, { defineTool } from '@deepseek-ai/dsh-tools';
import type { EvalSystem } from '../src/eval/evaluate.js';

export async function spillPolicySystem(): Promise<EvalSystem & { close(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-eval-spill-'));
  const ctx = new Context();
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin(LocalSpillStore, { root: dir });
  await ctx.plugin(SpillPolicy, { maxInlineBytes: 50_000 });
  let current = '';
  ctx.tools.register(
    defineTool({
      name: 'bash',
      description: 'returns the sample under evaluation',
      parameters: {},
      output: {
        schema: { type: 'string' },
        render: (_args: unknown, value: string) => [{ type: 'text', text: value }],
      },
      execute: async () => current,
    }) as never,
  );
  let calls = 0;
  return {
    name: 'DSH spill-policy 50,000 B',
    async run(sample) {
      current = sample.text;
      const started = performance.now();
      const result = await ctx.tools.execute({
        callId: `eval-${++calls}` as never,
        name: 'bash',
        arguments: {},
        signal: new AbortController().signal,
        agent: { session: { header: { id: 'squeeze-eval' } } } as never,
      });
      const ms = performance.now() - started;
      const output = result.content.map((b: { type: string; text?: string }) => b.text ?? '').join('\n');
      // A spilled result names the file that holds the whole text.
      const spilled = output.includes('Full formatted result stored at:');
      return { output, recoverable: () => spilled, ms };
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
