// DSH's own history handling (token meter, tool-result pruner, compaction-basic),
// loaded when installed. They are optional here: a test that needs them skips
// without them, and `SQUEEZE_DSH_COMPACTION_FROM=<dir>` points at a folder whose
// node_modules holds them (they must resolve the same @deepseek-ai/* packages).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from '@deepseek-ai/cordis';

const PACKAGES = {
  meter: '@deepseek-ai/dsh-token-meter',
  pruner: '@deepseek-ai/dsh-compaction-tool-result-pruner',
  basic: '@deepseek-ai/dsh-compaction-basic',
} as const;

async function load(specifier: string): Promise<Record<string, unknown> | undefined> {
  const from = process.env.SQUEEZE_DSH_COMPACTION_FROM;
  try {
    if (from) return (await import(pathToFileURL(createRequire(join(from, 'index.js')).resolve(specifier)).href)) as Record<string, unknown>;
    return (await import(specifier)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export interface DshCompaction {
  /** Mounts the token meter, the pruner (unless `pruner: false`) and compaction-basic, in the order DSH composes them. */
  mount(ctx: Context, options?: { pruner?: boolean }): Promise<void>;
}

/** DSH's compaction packages, or undefined when they are not installed. */
export async function dshCompaction(): Promise<DshCompaction | undefined> {
  const [meter, pruner, basic] = await Promise.all([load(PACKAGES.meter), load(PACKAGES.pruner), load(PACKAGES.basic)]);
  if (!meter || !pruner || !basic) return undefined;
  return {
    async mount(ctx, options = {}) {
      await ctx.plugin(meter.default as never, {} as never);
      if (options.pruner ?? true) await ctx.plugin(pruner.default as never, {} as never);
      await ctx.plugin(basic.BasicCompactionEngine as never, {} as never);
    },
  };
}
