// DSH's own history handling, as a host composes it: the token meter, the
// tool-result pruner, then compaction-basic (which runs the pruner and its LLM
// summary from an `agent/pre-step` listener once the meter reports 80% of the
// window).
import type { Context } from '@deepseek-ai/cordis';
import { BasicCompactionEngine } from '@deepseek-ai/dsh-compaction-basic';
import ToolResultPruner from '@deepseek-ai/dsh-compaction-tool-result-pruner';
import TokenMeter from '@deepseek-ai/dsh-token-meter';

export async function mountDshCompaction(ctx: Context): Promise<void> {
  await ctx.plugin(TokenMeter as never, {} as never);
  await ctx.plugin(ToolResultPruner as never, {} as never);
  await ctx.plugin(BasicCompactionEngine as never, {} as never);
}
