// The real DeepSeek Harness tool pipeline, without a model: Context,
// SystemPrompt, ToolRuntime, LocalSpillStore (temp root) and the shipped
// SpillPolicy at 50,000 bytes, from the published packages.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context, type Message } from '@deepseek-ai/cordis';
import LocalSpillStore from '@deepseek-ai/dsh-spill-local';
import * as SpillPolicy from '@deepseek-ai/dsh-spill-policy';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@deepseek-ai/dsh-tools';

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
  call(name: string, args?: unknown, extra?: { agent?: unknown; parent?: symbol; callId?: string }): Promise<ToolExecutionResult>;
  close(): void;
}

export async function createHarness(options: { spillStore?: boolean; spillPolicy?: boolean } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-dsh-'));
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
        ...('agent' in extra ? (extra.agent === undefined ? {} : { agent: extra.agent as never }) : { agent: AGENT as never }),
        ...(extra.parent ? { parent: extra.parent as never } : {}),
      });
    },
    close() {
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
