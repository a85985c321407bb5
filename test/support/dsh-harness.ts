// The real DeepSeek Harness tool pipeline, without a model: Context,
// SystemPrompt, ToolRuntime, LocalSpillStore (temp root) and the shipped
// SpillPolicy at 50,000 bytes, from the published packages.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context, type Message } from '@deepseek-ai/cordis';
import LocalSpillStore from '@deepseek-ai/dsh-spill-local';
import * as SpillPolicy from '@deepseek-ai/dsh-spill-policy';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import { AgentRegistry } from '@deepseek-ai/dsh-agent';
import { AgentLoop } from '@deepseek-ai/dsh-agent-loop';
import LlmRuntime, {
  CallId,
  createUserMessage,
  LlmAdapter,
  type GenerateOptions,
  type LlmResolvedModelInfo,
  type StreamChunk,
} from '@deepseek-ai/dsh-llm';
import { SessionId, SessionStore } from '@deepseek-ai/dsh-session';
import { Config } from '../../src/adapters/dsh/config.js';
import { applyWith, inject, name, type ServiceFactory } from '../../src/adapters/dsh/plugin.js';
import { coreServices } from '../../src/adapters/dsh/core.js';

/** The core the plugin runs on in these tests: squeeze's real pipeline and store. */
export const CORE: ServiceFactory = coreServices;

/** The squeeze/dsh plugin, on the real core unless a test needs a stand-in. */
export function squeezePlugin(factory: ServiceFactory = CORE) {
  return { name, inject, Config, apply: (ctx: Context, config: unknown) => applyWith(ctx, config, factory) };
}

// The harness declares Node 22; on Node 20 the agent loop needs this (tests only).
if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

export const SESSION_ID = 'session-squeeze-test';
export const AGENT = { session: { header: { id: SESSION_ID } } };

export interface Harness {
  readonly ctx: Context;
  readonly dir: string;
  /** Every log record, in order. */
  readonly logs: Message[];
  /** Log lines of one severity, as text. */
  messages(type: Message['type']): string[];
  /** Registers a tool whose model-facing content is `content` (a string becomes one text block). */
  tool(name: string, content: string | (() => unknown[]), options?: { fail?: boolean }): void;
  call(
    name: string,
    args?: unknown,
    extra?: { agent?: unknown; parent?: symbol; callId?: string },
  ): Promise<ToolExecutionResult>;
  close(): void;
}

export async function createHarness(options: { spillStore?: boolean; spillPolicy?: boolean } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-dsh-'));
  // The plugin's default store is $XDG_CACHE_HOME/squeeze: one fresh store per harness, never the user's.
  const cacheHome = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = join(dir, 'cache');
  const ctx = new Context();
  const logs: Message[] = [];
  ctx.logger.exporter({ levels: { default: 3 }, export: (message) => void logs.push(message) });
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  if (options.spillStore ?? true) await ctx.plugin(LocalSpillStore, { root: join(dir, 'spill') });
  if (options.spillPolicy ?? true) await ctx.plugin(SpillPolicy, { maxInlineBytes: 50000 });
  let calls = 0;
  return {
    ctx,
    dir,
    logs,
    messages: (type) => logs.filter((m) => m.type === type).map((m) => m.args.map(String).join(' ')),
    tool(name, content, toolOptions = {}) {
      ctx.tools.register(
        defineTool({
          name,
          description: `test tool ${name}`,
          parameters: {},
          output: {
            schema: { type: 'string' },
            render: (_args, value) =>
              (typeof content === 'string' ? [{ type: 'text', text: value }] : content()) as never,
          },
          async execute() {
            if (toolOptions.fail) throw new Error(typeof content === 'string' ? content : 'failed');
            return typeof content === 'string' ? content : 'value';
          },
        }),
      );
    },
    call(name, args = {}, extra = {}) {
      calls++;
      return ctx.tools.execute({
        callId: (extra.callId ?? `call-${calls}`) as never,
        name,
        arguments: args,
        signal: new AbortController().signal,
        ...('agent' in extra
          ? extra.agent === undefined
            ? {}
            : { agent: extra.agent as never }
          : { agent: AGENT as never }),
        ...(extra.parent ? { parent: extra.parent as never } : {}),
      });
    },
    close() {
      if (cacheHome === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = cacheHome;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The model-facing text of a result (all blocks must be text). */
export function textOf(result: ToolExecutionResult): string {
  return result.content.map((b) => (b.type === 'text' ? b.text : `<${b.type}>`)).join('\n');
}

/** A bash-like build log: many INFO lines, a few warnings and one error with its cause. */
export function buildLog(lines: number, seed = 1): string {
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < lines; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    if (i === Math.floor(lines * 0.7)) {
      out.push('ERROR: src/server/router.ts:88:14 TypeError: cannot read properties of undefined (reading "id")');
      out.push('    caused by: request.user is undefined when the session cookie is missing');
    } else if (x % 97 === 0) out.push(`WARN  [worker-${x % 7}] retrying upload chunk ${i} after timeout`);
    else out.push(`INFO  [worker-${x % 7}] compiled module ${i} (${x % 5000} ms, ${x % 300} KB)`);
  }
  return out.join('\n');
}

/** One scripted model reply: text, or tool calls. */
export type Reply = { text: string } | { calls: { name: string; args: unknown }[] };

export interface AgentHarness extends Harness {
  /** Every request the model received, in order. */
  readonly requests: GenerateOptions[];
  /** Sends a user message and waits until the agent is idle again. */
  say(text: string): Promise<void>;
}

/**
 * The full agent loop (LlmRuntime, SessionStore, AgentRegistry, AgentLoop) over
 * the tool harness, with a scripted adapter instead of a model: `script` gets
 * the requests so far and returns the next reply.
 */
export async function createAgentHarness(
  script: (requests: readonly GenerateOptions[]) => Reply,
  options: { contextWindow?: number; beforeAgent?: (h: Harness) => Promise<void> } = {},
): Promise<AgentHarness> {
  const h = await createHarness();
  const { ctx } = h;
  await ctx.plugin(LlmRuntime);
  await ctx.plugin(SessionStore);
  await ctx.plugin(AgentRegistry);
  await ctx.plugin(AgentLoop, { agents: [] });
  const requests: GenerateOptions[] = [];
  class ScriptedAdapter extends LlmAdapter {
    override async resolveModel(provider: string, model: string): Promise<LlmResolvedModelInfo> {
      return {
        provider,
        id: model,
        name: model,
        ...(options.contextWindow ? { context: { contextWindow: options.contextWindow } } : {}),
      };
    }
    async *stream(request: GenerateOptions): AsyncIterable<StreamChunk> {
      requests.push(request);
      const reply = script(requests);
      if ('text' in reply) {
        yield { type: 'block-start', index: 0, blockType: 'text' };
        yield { type: 'text-delta', index: 0, text: reply.text };
        yield { type: 'block-end', index: 0, block: { type: 'text', text: reply.text } };
        yield { type: 'finish', reason: { kind: 'stop' } };
        return;
      }
      for (const [index, call] of reply.calls.entries()) {
        const id = CallId(`call-${requests.length}-${index}`);
        const args = JSON.stringify(call.args);
        yield { type: 'block-start', index, blockType: 'tool-call' };
        yield { type: 'tool-call-delta', index, id, name: call.name, argumentsDelta: args };
        yield { type: 'block-end', index, block: { type: 'tool-call', id, name: call.name, arguments: args } };
      }
      yield { type: 'finish', reason: { kind: 'tool-calls' } };
    }
  }
  ctx.llm.registerAdapter(['scripted'], new ScriptedAdapter());
  await options.beforeAgent?.(h);
  const handle = await ctx.agents.create({
    sessionId: SessionId(SESSION_ID),
    agentOptions: { provider: 'scripted', model: 'scripted-1' },
  });
  const agent = handle.agent;
  return {
    ...h,
    requests,
    async say(text) {
      agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      await agent.whenIdle();
    },
  };
}

/** The text of every tool result in a request, in order. */
export function toolResultsOf(request: GenerateOptions): string[] {
  const out: string[] = [];
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type === 'tool-result')
        out.push(block.content.map((b) => (b.type === 'text' ? b.text : `<${b.type}>`)).join('\n'));
    }
  }
  return out;
}

/** The files the spill store wrote under the harness's temp dir, with their text. */
export function spillFiles(h: Harness): { path: string; text: string }[] {
  const root = join(h.dir, 'spill');
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push({ path, text: readFileSync(path, 'utf8') });
    }
  };
  try {
    walk(root);
  } catch {
    // no spill store, or nothing spilled yet
  }
  return out;
}
