// The `tools/post-execute` listener: the pipeline and its invariants around the
// gate (docs/GLOSSARY.md). It waits for the inner listeners, looks only at an accepted,
// content-only, all-text, top-level result, and either passes the downstream
// decision through untouched or returns a new decision with smaller content
// that says how to get the original back. Every failure keeps the original.
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import type { CcrType, CompressResult } from '../../index.js';
import { SAMPLE_ID } from '../../store/index.js';
import type { PluginConfig } from './config.js';
import type { ContextEngine } from './context-engine.js';
import { recoverFullOutput, type FullOutput } from './full-output.js';
import { gate, gateCeiling, gateSize, plainText, type Block } from './gate.js';
import { lines, type Ledger } from './ledger.js';
import type { CompressCall, NoticeInput, Services } from './ports.js';

/** The harness's spill store (`ctx.spillStore`), as far as the plugin uses it. */
export interface SpillStoreLike {
  saveText(input: {
    owner: { sessionId: string };
    source: { toolName: string; callId: string; label: string };
    suggestedName: string;
    content: string;
  }): Promise<{ locator: string; bytes: number; retrievalHint: string }>;
}

/** The harness's shell tools: their `command` argument is the shell command line that printed the result. */
const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash']);

/**
 * The command line of a shell tool's call, for routing its output by program;
 * undefined for other tools (their `command` arguments, if any, mean something else).
 */
function commandOf(exec: ToolExecution): string | undefined {
  if (!SHELL_TOOLS.has(exec.name)) return undefined;
  const args = exec.arguments;
  if (args === null || typeof args !== 'object') return undefined;
  const command = (args as { command?: unknown }).command;
  return typeof command === 'string' && command.trim() !== '' ? command : undefined;
}

/**
 * The line a result carries when the level the config forces could not be
 * kept: the model is told, the level is never switched silently (the CLI says
 * the same on stderr).
 */
export function levelNote(result: Pick<CompressResult, 'level' | 'levelNotKept'>): string | undefined {
  const notKept = result.levelNotKept;
  if (!notKept) return undefined;
  const why = notKept.reason === 'over-max-tokens' ? 'its output is over maxTokens' : 'it would drop a preserved item';
  const applied = result.level === notKept.requested ? `${result.level}, then lines sampled to fit` : result.level;
  return `[squeeze: level ${notKept.requested} not kept: ${why}; applied ${applied}]`;
}

/** The longest level note, to leave room for it under the ceiling when a level is forced. */
const LONGEST_LEVEL_NOTE = (['lossless', 'light', 'aggressive', 'emergency'] as const)
  .flatMap((requested) => (['over-max-tokens', 'preserved-item-lost'] as const).flatMap((reason) =>
    (['lossless', 'light', 'aggressive', 'emergency'] as const).map((level) => levelNote({ level, levelNotKept: { requested, reason } })!)))
  .reduce((a, b) => (b.length > a.length ? b : a));

/**
 * A spill location a little longer than the local spill store gives (a temp
 * path and its hint), to size the notice before the spill file exists.
 */
const SAMPLE_SPILL = {
  locator: `/tmp/${'d'.repeat(24)}/spill/${'s'.repeat(36)}/${'c'.repeat(36)}-${'b'.repeat(12)}.txt`,
  hint: 'Use read with offset/limit, or grep this path to search within it.',
};

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

  /** Tokens of the notice the plugin appends (`\n\n` + the store's notice). */
  function notice(type: CcrType, size: number, spilled: boolean): number {
    const input: NoticeInput = { id: SAMPLE_ID, type, size, ...(spilled ? { spill: SAMPLE_SPILL } : {}) };
    return services.estimator.estimate(`\n\n${services.notice(input)}`);
  }

  /** The per-call ceiling that leaves room for `reserve` tokens of notice under the configured maxTokens. */
  function ceilingBeside(reserve: number): Pick<CompressCall, 'maxTokens' | 'targetTokens' | 'minTokens'> {
    if (reserve <= 0) return {};
    const maxTokens = Math.max(1, config.maxTokens - reserve);
    return {
      maxTokens,
      ...(config.targetTokens > maxTokens ? { targetTokens: maxTokens } : {}),
      ...(config.minTokens > maxTokens ? { minTokens: maxTokens } : {}),
    };
  }

  async function compress(
    exec: ToolExecution,
    decision: PostToolDecision,
    text: string,
    type: CcrType,
    isError: boolean,
    engine: ContextEngine | undefined,
    full?: FullOutput & { shown: string },
  ): Promise<{ decision: PostToolDecision; id?: string }> {
    // Started first so the file write overlaps compression; if the result then
    // passes through, the spill file is simply not referenced.
    const spillSave = config.retainOriginal ? spill(exec, text) : undefined;
    const contextFill = engine?.contextFill();
    const command = commandOf(exec);
    const result = await services.squeeze.compress(text, {
      toolName: exec.name,
      ...(command !== undefined ? { command } : {}),
      ...ceilingBeside(
        (config.retainOriginal ? notice(type, Buffer.byteLength(text, 'utf8'), spillSave !== undefined) : 0) +
          (config.level === 'auto' ? 0 : services.estimator.estimate(`\n${LONGEST_LEVEL_NOTE}`)),
      ),
      isError,
      ...(exec.agent !== undefined ? { conversation: exec.agent } : {}),
      ...(contextFill !== undefined ? { contextFill } : {}),
    });
    if (result.outcome === 'failed') warn(`squeeze: compressing ${exec.name} failed (${describeError(result.error)}); keeping the original content`);
    if (result.outcome !== 'compressed' || exec.signal.aborted) return { decision };
    // What the model would see otherwise: the pipeline measured `text`, or the harness's tail when `text` is the full output.
    const originalBytes = full ? Math.min(result.bytesIn, Buffer.byteLength(full.shown, 'utf8')) : result.bytesIn;
    const originalTokens = full ? Math.min(result.tokensIn, services.estimator.estimate(full.shown)) : result.tokensIn;
    const note = levelNote(result);
    const compressed = note ? `${result.output}\n${note}` : result.output;
    const body = full ? `${compressed}\n\n${full.note}` : compressed;
    if (!config.retainOriginal) {
      if (Buffer.byteLength(body, 'utf8') >= originalBytes) return { decision };
      ledger.write(`ccr: compressed ${exec.name} ${type} ${result.bytesIn} (original not retained)`);
      return { decision: replaced(decision, body) };
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
    const output = `${body}${full ? '\n' : '\n\n'}${services.notice(retention)}`;
    // Invariant 6: replace only when what the model sees gets smaller, in bytes and in tokens.
    if (Buffer.byteLength(output, 'utf8') >= originalBytes || services.estimator.estimate(output) >= originalTokens) {
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
      const full = await recoverFullOutput(exec.name, text, { maxBytes: config.fullOutputMaxBytes });
      const outcome = await compress(exec, decision, full?.text ?? text, verdict.type, result.isError, engine, full && { ...full, shown: text });
      engine?.observe({ toolName: exec.name, isError: result.isError, text, ...(outcome.id ? { id: outcome.id } : {}) });
      return outcome.decision;
    } catch (error) {
      warn(`squeeze: ${exec.name}: ${describeError(error)}; keeping the original content`);
      return decision;
    }
  };
}
