// The `tools/post-execute` listener: seed 000's pipeline and invariants around
// seed 002's gate. It waits for the inner listeners, looks only at an accepted,
// content-only, all-text, top-level result, and either passes the downstream
// decision through untouched or returns a new decision with smaller content
// that says how to get the original back. Every failure keeps the original.
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import type { CcrType } from '../pipeline/ccr.js';
import type { PluginConfig } from './dsh-config.js';
import type { ContextEngine } from './dsh-engine.js';
import { gate, gateCeiling, gateSize, plainText, type Block } from './dsh-gate.js';
import { lines, type Ledger } from './dsh-ledger.js';
import type { NoticeInput, Services } from './dsh-ports.js';

/** The harness's spill store (`ctx.spillStore`), as far as the plugin uses it. */
export interface SpillStoreLike {
  saveText(input: {
    owner: { sessionId: string };
    source: { toolName: string; callId: string; label: string };
    suggestedName: string;
    content: string;
  }): Promise<{ locator: string; bytes: number; retrievalHint: string }>;
}

/** The harness's file reader, never spilled (see `spill`). */
const READ_TOOL = 'read';

export interface ListenerDeps {
  readonly config: PluginConfig;
  readonly services: Services;
  readonly ledger: Ledger;
  readonly warn: (message: string) => void;
  /** Looked up per call: the store may be loaded or unloaded at any time. */
  readonly spillStore: () => SpillStoreLike | undefined;
  /** The context engine of the calling agent (one per agent: fills and turns are per conversation). */
  readonly engineOf?: (agent: object | undefined) => ContextEngine | undefined;
}

type Listener = (
  exec: ToolExecution,
  result: Readonly<ToolExecutionResult>,
  next: () => Promise<PostToolDecision>,
) => Promise<PostToolDecision>;

export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The replacement decision: new content, the downstream additionalContexts kept. */
function replaced(decision: PostToolDecision, text: string): PostToolDecision {
  return {
    kind: 'accept',
    content: [{ type: 'text', text }],
    ...(decision.additionalContexts ? { additionalContexts: decision.additionalContexts } : {}),
  };
}

export function createPostExecuteListener(deps: ListenerDeps): Listener {
  const { config, services, ledger, warn } = deps;
  const ceiling = gateCeiling(config);
  /** Spill files this plugin wrote: reading one back must not be compressed again. */
  const spilled = new Set<string>();
  const readsSpilledCopy = (exec: ToolExecution) =>
    spilled.size > 0 &&
    exec.arguments !== null &&
    typeof exec.arguments === 'object' &&
    Object.values(exec.arguments).some((value) => typeof value === 'string' && spilled.has(value));

  /**
   * Saves the original to the harness spill store, when there is one and a
   * session to own the file. Never rejects: a failed save leaves the original
   * with the CCR store only (ccr_retrieve still gives it back).
   */
  function spill(exec: ToolExecution, text: string): Promise<NoticeInput['spill']> | undefined {
    const spillStore = deps.spillStore();
    const sessionId = exec.agent?.session.header.id;
    // A spilled `read` result would tell the model to `read` the copy: a loop, as spill-policy notes.
    if (spillStore === undefined || sessionId === undefined || exec.name === READ_TOOL) return undefined;
    const save = spillStore.saveText({
      owner: { sessionId },
      source: { toolName: exec.name, callId: exec.callId, label: 'result' },
      suggestedName: `${exec.name}.txt`,
      content: text,
    });
    return save.then(
      (ref) => {
        spilled.add(ref.locator);
        return { locator: ref.locator, hint: ref.retrievalHint };
      },
      (error: unknown) => {
        warn(`squeeze: spill store could not save ${exec.name} (${describeError(error)}); original kept for ccr_retrieve only`);
        return undefined;
      },
    );
  }

  async function compress(
    exec: ToolExecution,
    decision: PostToolDecision,
    text: string,
    type: CcrType,
    isError: boolean,
    engine: ContextEngine | undefined,
  ): Promise<{ decision: PostToolDecision; id?: string }> {
    // Started first so the file write overlaps compression; if the result then
    // passes through, the spill file is simply not referenced.
    const spillSave = config.retainOriginal ? spill(exec, text) : undefined;
    const contextFill = engine?.contextFill();
    const result = await services.squeeze.compress(text, {
      toolName: exec.name,
      isError,
      ...(exec.agent !== undefined ? { conversation: exec.agent } : {}),
      ...(contextFill !== undefined ? { contextFill } : {}),
    });
    if (result.outcome === 'failed') warn(`squeeze: compressing ${exec.name} failed (${describeError(result.error)}); keeping the original content`);
    if (result.outcome !== 'compressed' || exec.signal.aborted) return { decision };
    const originalBytes = result.bytesIn; // the pipeline measured the same text
    if (!config.retainOriginal) {
      if (result.bytesOut >= originalBytes) return { decision };
      ledger.write(`ccr: compressed ${exec.name} ${type} ${originalBytes} (original not retained)`);
      return { decision: replaced(decision, result.output) };
    }
    let stored: { id: string; size: number };
    try {
      stored = await services.store.put(text, { type, tool: exec.name });
    } catch (error) {
      warn(`squeeze: could not store the original of ${exec.name} (${describeError(error)}); keeping the original content`);
      return { decision };
    }
    const saved = await spillSave;
    const retention: NoticeInput = { id: stored.id, type, size: stored.size, ...(saved ? { spill: saved } : {}) };
    const output = `${result.output}\n\n${services.notice(retention)}`;
    // Invariant 6: replace only when what the model sees gets smaller, in bytes and in tokens.
    if (Buffer.byteLength(output, 'utf8') >= originalBytes || services.estimator.estimate(output) >= result.tokensIn) {
      return { decision, id: retention.id };
    }
    ledger.write(lines.compressed(exec.name, type, retention.size, retention.id));
    return { decision: replaced(decision, output), id: retention.id };
  }

  return async (exec, result, next) => {
    const decision = await next();
    try {
      if (decision.kind !== 'accept' || Object.hasOwn(decision, 'value') || exec.parent !== undefined) return decision;
      if (exec.signal.aborted || readsSpilledCopy(exec)) return decision;
      const content = (decision.content ?? result.content) as readonly Block[];
      const text = plainText(content);
      if (text === undefined) return decision;
      const engine = deps.engineOf?.(exec.agent);
      const size = gateSize(content, text, ceiling);
      const verdict = gate({ toolName: exec.name, isError: result.isError, text, size }, config);
      if (verdict.action === 'pass') {
        if (verdict.reason !== 'empty') engine?.observe({ toolName: exec.name, isError: result.isError, text });
        return decision;
      }
      if (verdict.action === 'store') {
        const stored = await services.store.put(text, { type: verdict.type, tool: exec.name });
        ledger.write(lines.stored(exec.name, verdict.type, stored.size, stored.id));
        engine?.observe({ toolName: exec.name, isError: result.isError, text, id: stored.id });
        return decision;
      }
      const outcome = await compress(exec, decision, text, verdict.type, result.isError, engine);
      engine?.observe({ toolName: exec.name, isError: result.isError, text, ...(outcome.id ? { id: outcome.id } : {}) });
      return outcome.decision;
    } catch (error) {
      warn(`squeeze: ${exec.name}: ${describeError(error)}; keeping the original content`);
      return decision;
    }
  };
}
