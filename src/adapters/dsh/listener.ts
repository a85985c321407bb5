// The `tools/post-execute` listener: the pipeline and its invariants around the
// gate (docs/GLOSSARY.md). It waits for the inner listeners, looks only at an accepted,
// content-only, all-text, top-level result, and either passes the downstream
// decision through untouched or returns a new decision with smaller content
// that says how to get the original back. Every failure keeps the original.
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import {
  type CcrType,
  type CompressResult,
  type Level,
  gentlest,
  LEVELS,
  levelNotKeptText,
  MAX_VERDICT_CHARS,
  notShownNote,
} from '../../index.js';
import { idFrom, LATE, SAMPLE_ID } from '../../store/index.js';
import { withNewline } from '../../text/strings.js';
import type { PluginConfig } from './config.js';
import type { ContextEngine } from './context-engine.js';
import { recoverFullOutput, type FullOutput } from './full-output.js';
import { BackOff, backOffKey } from './back-off.js';
import { squeezeRetrieval } from './retrieve-command.js';
import { gate, gateCeiling, gateSize, plainText, RETRIEVE_TOOL, type Block } from './gate.js';
import { lines, type Ledger } from './ledger.js';
import type { NoticeInput, Services } from './ports.js';
import { describeError } from './errors.js';
import type { Spills } from './spill.js';

/** The harness's shell tools: their `command` argument is the shell command line that printed the result. */
const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash']);

/** The harness's search tool: its `pattern` argument is the regex every match line holds. */
const SEARCH_TOOL = 'grep';

/** A string argument of a call, or undefined when the arguments hold none under `key`. */
function stringArgument(exec: ToolExecution, key: string): string | undefined {
  const args = exec.arguments;
  const value = args !== null && typeof args === 'object' ? (args as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The pattern of a search tool's call; undefined for other tools (a glob's pattern matches paths, not lines). */
function patternOf(exec: ToolExecution): string | undefined {
  const pattern = exec.name === SEARCH_TOOL ? stringArgument(exec, 'pattern') : undefined;
  return pattern === '' ? undefined : pattern;
}

/**
 * The command line of a shell tool's call, for routing its output by program;
 * undefined for other tools (their `command` arguments, if any, mean something else).
 */
function commandOf(exec: ToolExecution): string | undefined {
  const command = SHELL_TOOLS.has(exec.name) ? stringArgument(exec, 'command') : undefined;
  return command?.trim() === '' ? undefined : command;
}

/**
 * The line a result carries when the level the config forces could not be
 * kept: the model is told, the level is never switched silently (the CLI says
 * the same on stderr).
 */
export function levelNote(result: Pick<CompressResult, 'level' | 'levelNotKept'>): string | undefined {
  const text = levelNotKeptText(result, { level: 'level', maxTokens: 'maxTokens' });
  return text === undefined ? undefined : `[squeeze: ${text}]`;
}

/** The level a result is forced to: the gentler of the configured one and the back-off's, if any. */
function forcedLevel(configured: PluginConfig['level'], backOff: Level | undefined): Level | undefined {
  if (configured === 'auto') return backOff;
  if (backOff === undefined) return configured as Level;
  return gentlest(backOff, configured as Level);
}

/** The longest level note, to leave room for it under the ceiling when a level is forced. */
const LONGEST_LEVEL_NOTE = LEVELS.flatMap((requested) =>
  (['over-max-tokens', 'preserved-item-lost'] as const).flatMap((reason) =>
    LEVELS.map((level) => levelNote({ level, levelNotKept: { requested, reason } })!),
  ),
).reduce((a, b) => (b.length > a.length ? b : a));

/**
 * A spill location a little longer than the local spill store gives (a temp
 * path and its hint), to size the notice before the spill file exists.
 */
const SAMPLE_SPILL = {
  locator: `/tmp/${'d'.repeat(24)}/spill/${'s'.repeat(36)}/${'c'.repeat(36)}-${'b'.repeat(12)}.txt`,
  hint: 'Use read with offset/limit, or grep this path to search within it.',
};

/** A verdict line as long as one gets (with the facts it could not show), to size the notice before the result is known. */
const SAMPLE_VERDICT =
  'verdict: 12 of 3456 tests failed; tsc: 7 errors, first at src/a.ts:12:3; make: Error 2; '
    .repeat(3)
    .slice(0, MAX_VERDICT_CHARS + 3) + notShownNote(99);

export interface ListenerDeps {
  readonly config: PluginConfig;
  readonly services: Services;
  readonly ledger: Ledger;
  readonly warn: (message: string) => void;
  /** The plugin's spill copies, shared with the context engine. */
  readonly spills: Spills;
  /** The context engine of the calling agent (one per agent: fills and turns are per conversation). */
  readonly engineOf?: (agent: object | undefined) => ContextEngine | undefined;
}

type Listener = (
  exec: ToolExecution,
  result: Readonly<ToolExecutionResult>,
  next: () => Promise<PostToolDecision>,
) => Promise<PostToolDecision>;

/** The replacement decision: new content, the downstream additionalContexts kept. */
function replaced(decision: PostToolDecision, text: string): PostToolDecision {
  return {
    kind: 'accept',
    content: [{ type: 'text', text }],
    ...(decision.additionalContexts ? { additionalContexts: decision.additionalContexts } : {}),
  };
}

/** The id a `ccr_retrieve` call asked for, when it names one. */
function retrievedId(exec: ToolExecution): string | undefined {
  const hash = stringArgument(exec, 'hash');
  return hash === undefined ? undefined : idFrom(hash);
}

/** One result on its way through the listener: what it is, what the harness decided, where it came from. */
interface Call {
  readonly exec: ToolExecution;
  readonly decision: PostToolDecision;
  /** The text to compress: the full output when the harness kept one, else the result's text. */
  readonly text: string;
  readonly type: CcrType;
  readonly isError: boolean;
  readonly command: string | undefined;
  readonly engine: ContextEngine | undefined;
  /** The harness's full output, with what the model was shown of it. */
  readonly full?: FullOutput & { shown: string };
}

/** What became of a call: the decision to return, and the id of the original when it was stored. */
interface Outcome {
  readonly decision: PostToolDecision;
  readonly id?: string;
}

export function createPostExecuteListener(deps: ListenerDeps): Listener {
  const { config, services, ledger, warn } = deps;
  const ceiling = gateCeiling(config);
  /** Per session (the calling agent): what it was shown compressed and the levels its retrievals lowered. */
  const backOffs = new WeakMap<object, BackOff>();
  const backOffOf = (exec: ToolExecution): BackOff | undefined => {
    if (!config.backOffAfterRetrieval || exec.agent === undefined) return undefined;
    let backOff = backOffs.get(exec.agent);
    if (backOff === undefined) {
      backOff = new BackOff();
      backOffs.set(exec.agent, backOff);
    }
    return backOff;
  };
  /**
   * At least the text's UTF-8 size (3 bytes per UTF-16 unit at most): the
   * notice's tokens need only its digits, and counting the bytes of a 50 MB
   * result on the harness's thread stalls it about 16 ms.
   */
  const maxUtf8Bytes = (text: string) => text.length * 3;
  /** Tokens of the notice the plugin appends (`\n\n` + the store's notice). */
  function notice(type: CcrType, size: number, spilled: boolean): number {
    const input: NoticeInput = {
      id: SAMPLE_ID,
      type,
      size,
      verdict: SAMPLE_VERDICT,
      ...(spilled ? { spill: SAMPLE_SPILL } : {}),
    };
    return services.estimator.estimate(`\n\n${services.notice(input)}`);
  }

  /**
   * Compresses and stores, then writes a ledger line for each wait outside
   * the process that passed its deadline (the spill save, the full-output
   * read), saying what the result became.
   */
  async function compress(call: Call): Promise<Outcome> {
    const { exec, text } = call;
    // Started first so the file write overlaps compression; if the result then
    // passes through, the spill file is simply not referenced.
    const spillSave = config.retainOriginal
      ? deps.spills.save({ toolName: exec.name, callId: exec.callId, sessionId: exec.agent?.session.header.id }, text)
      : undefined;
    const outcome = await decide(call, spillSave);
    const became = outcome.decision === call.decision ? ('passed through' as const) : { id: outcome.id };
    if (call.full?.lateMs !== undefined)
      ledger.write(lines.late('full-output read', exec.name, call.full.lateMs, became));
    // A save still in flight when the result passed through early is reported when it settles.
    void spillSave?.then((saved) => {
      if (saved === LATE) ledger.write(lines.late('spill save', exec.name, deps.spills.deadlineMs, became));
    });
    return outcome;
  }

  /** The decision for one result: compressed and stored, or passed through (the original decision). */
  async function decide(call: Call, spillSave: ReturnType<Spills['save']>): Promise<Outcome> {
    const { exec, decision, text, type, isError, command, engine, full } = call;
    const contextFill = engine?.contextFill();
    const backOff = backOffOf(exec);
    const key = backOffKey(exec.name, command);
    const level = forcedLevel(config.level, backOff?.levelFor(key));
    const pattern = patternOf(exec);
    const result = await services.squeeze.compress(text, {
      toolName: exec.name,
      ...(command !== undefined ? { command } : {}),
      ...(pattern !== undefined ? { pattern } : {}),
      ...(level !== undefined ? { level } : {}),
      // Room under maxTokens for what the plugin appends: its notice, and the level note when a level is forced.
      reserveTokens:
        (config.retainOriginal ? notice(type, maxUtf8Bytes(text), spillSave !== undefined) : 0) +
        (level === undefined ? 0 : services.estimator.estimate(`\n${LONGEST_LEVEL_NOTE}`)),
      isError,
      ...(exec.agent !== undefined ? { conversation: exec.agent } : {}),
      ...(contextFill !== undefined ? { contextFill } : {}),
    });
    if (result.outcome === 'failed')
      warn(`squeeze: compressing ${exec.name} failed (${describeError(result.error)}); keeping the original content`);
    if (result.outcome !== 'compressed' || exec.signal.aborted) return { decision };
    // What the model would see otherwise: the pipeline measured `text`, or the harness's tail when `text` is the full output.
    const originalBytes = full ? Math.min(result.bytesIn, Buffer.byteLength(full.shown, 'utf8')) : result.bytesIn;
    const originalTokens = full ? Math.min(result.tokensIn, services.estimator.estimate(full.shown)) : result.tokensIn;
    const note = levelNote(result);
    // Each part ends with a line break; a blank line sets the harness's note and the notice apart.
    const compressed = note ? `${withNewline(result.output)}${note}\n` : withNewline(result.output);
    const body = full ? `${compressed}\n${full.note}\n` : compressed;
    if (!config.retainOriginal) {
      if (Buffer.byteLength(body, 'utf8') >= originalBytes) return { decision };
      ledger.write(`ccr: compressed ${exec.name} ${type} ${result.bytesIn} (original not retained)`);
      return { decision: replaced(decision, body) };
    }
    let stored: { id: string; size: number };
    try {
      stored = await services.store.put(text, { type, tool: exec.name });
    } catch (error) {
      warn(
        `squeeze: could not store the original of ${exec.name} (${describeError(error)}); keeping the original content`,
      );
      return { decision };
    }
    const saved = await spillSave;
    const retention: NoticeInput = {
      id: stored.id,
      type,
      size: stored.size,
      ...(saved && saved !== LATE ? { spill: saved } : {}),
      ...(result.verdict ? { verdict: result.verdict.line } : {}),
    };
    const output = `${body}${full ? '' : '\n'}${services.notice(retention)}`;
    // Invariant 6: replace only when what the model sees gets smaller, in bytes and in tokens.
    if (Buffer.byteLength(output, 'utf8') >= originalBytes || services.estimator.estimate(output) >= originalTokens) {
      return { decision, id: retention.id };
    }
    ledger.write(lines.compressed(exec.name, type, retention.size, retention.id));
    backOff?.compressed(retention.id, exec.name, key, result.level);
    return { decision: replaced(decision, output), id: retention.id };
  }

  /** A successful retrieval of a result this session was shown compressed: its tool's next results gentler. */
  function noteRetrieval(exec: ToolExecution, id: string | undefined): void {
    const regret = id === undefined ? undefined : backOffOf(exec)?.retrieved(id);
    if (regret !== undefined && id !== undefined)
      ledger.write(lines.backedOff(regret.tool, id, regret.retrievals, regret.key, regret.level));
  }

  /**
   * A shell command running `squeeze retrieve` (the notice's CLI hint): true
   * when it is one, its output then kept as it is. A run that printed the
   * original counts as a retrieval; the CLI's store, not this one, saw the hit,
   * so the ledger line is written here.
   */
  function shellRetrieval(
    exec: ToolExecution,
    command: string | undefined,
    result: Readonly<ToolExecutionResult>,
    decision: PostToolDecision,
  ): boolean {
    const retrieval = command === undefined ? null : squeezeRetrieval(command);
    if (retrieval === null) return false;
    const content = (decision.kind === 'accept' ? (decision.content ?? result.content) : undefined) as
      | readonly Block[]
      | undefined;
    const text = content === undefined ? undefined : plainText(content);
    // The bash tool ends a failed command's output with `[exit code: N]` (squeeze retrieve exits 3 on an unknown id).
    const printed = !result.isError && text !== undefined && !/\[exit code: \d+\]\s*$/.test(text);
    if (printed && retrieval.id !== undefined) {
      ledger.write(lines.retrieved(retrieval.id));
      noteRetrieval(exec, retrieval.id);
    }
    return true;
  }

  return async (exec, result, next) => {
    const decision = await next();
    try {
      if (exec.name === RETRIEVE_TOOL) noteRetrieval(exec, result.isError ? undefined : retrievedId(exec));
      const command = commandOf(exec);
      if (shellRetrieval(exec, command, result, decision)) return decision;
      if (decision.kind !== 'accept' || Object.hasOwn(decision, 'value') || exec.parent !== undefined) return decision;
      if (exec.signal.aborted || deps.spills.readsCopy(exec)) return decision;
      const content = (decision.content ?? result.content) as readonly Block[];
      const text = plainText(content);
      if (text === undefined) return decision;
      const engine = deps.engineOf?.(exec.agent);
      const seen = {
        callId: exec.callId,
        toolName: exec.name,
        isError: result.isError,
        ...(command !== undefined ? { command } : {}),
      };
      const size = gateSize(content, text, ceiling);
      const verdict = gate({ toolName: exec.name, isError: result.isError, text, size }, config);
      if (verdict.action === 'pass') {
        // exempt tools (writers, delegation, the user's answers) always pass: the engine never replaces them either
        if (verdict.reason !== 'empty' && verdict.reason !== 'exempt') engine?.observe(seen);
        return decision;
      }
      if (verdict.action === 'store') {
        const stored = await services.store.put(text, { type: verdict.type, tool: exec.name });
        ledger.write(lines.stored(exec.name, verdict.type, stored.size, stored.id));
        engine?.observe({ ...seen, id: stored.id });
        return decision;
      }
      const full = await recoverFullOutput(exec.name, text, { maxBytes: config.fullOutputMaxBytes });
      const outcome = await compress({
        exec,
        decision,
        text: full?.text ?? text,
        type: verdict.type,
        isError: result.isError,
        command,
        engine,
        ...(full ? { full: { ...full, shown: text } } : {}),
      });
      engine?.observe({ ...seen, ...(outcome.id ? { id: outcome.id } : {}) });
      return outcome.decision;
    } catch (error) {
      warn(`squeeze: ${exec.name}: ${describeError(error)}; keeping the original content`);
      return decision;
    }
  };
}
