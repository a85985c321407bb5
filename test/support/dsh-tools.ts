// The real DeepSeek Harness tools, mounted the way the harness mounts them and
// driven without a model: read/write/edit (dsh-tool-fs over dsh-fs-local with
// the observation policy), grep/glob (dsh-tool-fs-search, ripgrep) and bash
// (dsh-tool-bash over shell-env, subprocess-local and bash-local, in that
// order). Used by the everyday-corpus script and by integration tests.
import { Context } from '@deepseek-ai/cordis';
import LocalBash from '@deepseek-ai/dsh-bash-local';
import LocalFileSystem from '@deepseek-ai/dsh-fs-local';
import * as FsPolicy from '@deepseek-ai/dsh-fs-observation-policy';
import * as ShellEnv from '@deepseek-ai/dsh-shell-env';
import LocalSubprocess from '@deepseek-ai/dsh-subprocess-local';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import * as ToolBash from '@deepseek-ai/dsh-tool-bash';
import * as ToolFs from '@deepseek-ai/dsh-tool-fs';
import * as ToolFsSearch from '@deepseek-ai/dsh-tool-fs-search';
import ToolRuntime, { type ToolExecutionResult } from '@deepseek-ai/dsh-tools';

export interface DshTools {
  readonly ctx: Context;
  /** The workspace every tool resolves relative paths against (the session's cwd). */
  readonly cwd: string;
  /** Runs one tool through the whole pipeline (post-execute listeners included). */
  call(name: string, args: Record<string, unknown>): Promise<ToolExecutionResult>;
  /** The model-facing text of one call (text blocks joined by newlines). */
  text(name: string, args: Record<string, unknown>): Promise<string>;
  dispose(): Promise<void>;
}

export interface DshToolsOptions {
  /** Workspace directory: the session header's cwd and the filesystem's base. */
  cwd: string;
  /** Session id of the stub agent (the observation policy tracks reads per session). */
  sessionId?: string;
  /** DSH_HOME for the shell environment (defaults to a folder the caller owns: `${cwd}/.dsh-home`). */
  dshHome?: string;
  /** Extra plugins mounted after the tools (e.g. squeeze, spill store and policy). */
  before?: (ctx: Context) => Promise<void>;
}

/** The model-facing text of a result; non-text blocks show as `<type>`. */
export function resultText(result: ToolExecutionResult): string {
  return result.content.map((b) => (b.type === 'text' ? b.text : `<${b.type}>`)).join('\n');
}

/**
 * Mounts the tool plugins (file system, observation policy, read/write/edit,
 * shell, bash, grep/glob) into a context that already has the tool runtime,
 * e.g. an agent loop's; returns their fibers, innermost last.
 */
export async function mountToolPlugins(
  ctx: Context,
  options: { cwd: string; dshHome?: string },
): Promise<{ dispose(): Promise<void> }[]> {
  const fibers: { dispose(): Promise<void> }[] = [];
  const mount = async (plugin: unknown, config?: unknown) =>
    void fibers.push(await ctx.plugin(plugin as never, config as never));
  await mount(LocalFileSystem, { cwd: options.cwd });
  await mount(FsPolicy);
  await mount(ToolFs);
  await mount(ShellEnv, { dshHome: options.dshHome ?? `${options.cwd}/.dsh-home` });
  await mount(LocalSubprocess, {});
  await mount(LocalBash, {});
  await mount(ToolBash, { enableRunInBackground: false });
  await mount(ToolFsSearch, { sampleOverCapGlobResults: false });
  return fibers;
}

export async function mountDshTools(options: DshToolsOptions): Promise<DshTools> {
  const ctx = new Context();
  const fibers: { dispose(): Promise<void> }[] = [];
  fibers.push(await ctx.plugin(SystemPrompt), await ctx.plugin(ToolRuntime));
  fibers.push(
    ...(await mountToolPlugins(ctx, { cwd: options.cwd, ...(options.dshHome ? { dshHome: options.dshHome } : {}) })),
  );
  await options.before?.(ctx);
  const agent = { session: { header: { id: options.sessionId ?? 'squeeze-dsh-tools', cwd: options.cwd } } };
  let calls = 0;
  const call = (name: string, args: Record<string, unknown>) =>
    ctx.tools.execute({
      callId: `call-${++calls}` as never,
      name,
      arguments: args,
      signal: new AbortController().signal,
      agent: agent as never,
    });
  return {
    ctx,
    cwd: options.cwd,
    call,
    text: async (name, args) => resultText(await call(name, args)),
    dispose: async () => {
      for (const fiber of fibers.reverse()) await fiber.dispose();
    },
  };
}
