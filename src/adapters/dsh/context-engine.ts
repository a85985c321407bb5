// The context engine (off by default): at every `agent/pre-step` it measures
// how full the model's context is (the fill also picks the level for
// new results) and, once the fill crosses the threshold, replaces the older
// `tool/result` nodes outside the protected window through the session
// surface (`session.append(..., { surfaceOp: { op: 'replace' } })`, the
// channel DSH's own pruner uses). A replaced result becomes squeeze's
// emergency form of its original (the one-line preview, the lines stating its
// verdict and the preserved items verbatim, one marker naming the lines
// left out) plus the retrieval notice: the original stays in the session's
// append-only log, in the CCR store and in the spill store. Replacements come
// in batches, oldest first, so a long session breaks the provider's prefix
// cache a handful of times, not at every step.
//
// Why emergency, for results squeeze compressed and for those it left alone
// alike: the levels follow the fill (lossless below 80%), and the
// engine keeps the fill far below that, so "the level the fill calls for" is
// lossless at every rewrite: what the result already is. On the 40-step bench
// session the light forms of the results squeeze left alone (file reads,
// small greps and diffs, build logs whose verdict a cut would lose) are 3 to
// 80 times the emergency form (median 14), and since the merged verdict gate
// the emergency form keeps the failing tests, the first error, the counts and
// the exit status.
import { freezeMessage } from '@deepseek-ai/dsh-llm';
import { ccrType, type CompressResult, type Level, type TokenEstimator } from '../../index.js';
import { selectBatch, type ResultNode, type WindowConfig } from './context-engine/window.js';
import { plainText, RETRIEVE_TOOL, type Block } from './gate.js';
import { count } from '../../text/strings.js';

export interface EngineConfig extends WindowConfig {
  readonly contextEngineThresholdPct: number;
  /** A rewrite must free at least this share of the window (percent): one prefix-cache break buys that much. */
  readonly contextEngineBatchPct: number;
  /** Tools whose results the engine never replaces. */
  readonly contextEngineKeepTools: readonly string[];
  readonly contextWindowTokens: number;
}

/**
 * One tool result the post-execute listener saw; `id` when its original is
 * already stored. The text itself is read back from the session when needed.
 */
export interface Observation {
  readonly callId: string;
  readonly toolName: string;
  readonly isError: boolean;
  /** The shell command line of a shell tool's call: routes the original by program when it is compressed again. */
  readonly command?: string;
  readonly id?: string;
}

/** How the engine asks squeeze for a result's replacement form (the plugin's compressor, no conversation: no repeat references). */
export interface FormCall {
  readonly toolName: string;
  readonly command?: string;
  readonly level: Level;
  readonly minTokens: number;
}

/** What the engine needs from the plugin: squeeze's estimator, the stores, the ledger. */
export interface EngineDeps {
  readonly estimator: TokenEstimator;
  compress(text: string, call: FormCall): CompressResult | Promise<CompressResult>;
  /** The original stored under `id`, or undefined when the store no longer has it. */
  original(id: string): Promise<string | undefined>;
  /** Keeps `text` retrievable (CCR store, spill store) and returns its notice, or undefined when it could not be kept. */
  retain(
    text: string,
    source: { toolName: string; callId: string; type: string; sessionId: string | undefined },
  ): Promise<string | undefined>;
  /** The token meter's price of a message, when one is loaded: its projections expect a shadow price before each replacement. */
  shadowPrice(): ((message: unknown) => number) | undefined;
  ledger(line: string): void;
  warn(message: string): void;
}

/** A result is replaced only when its form and notice are at most this share of what the model sees now. */
const MAX_REPLACED_SHARE = 0.5;

/** The parts of a harness message the model pays for, as far as text goes. */
interface BlockLike {
  readonly type: string;
  readonly text?: unknown;
  readonly name?: unknown;
  readonly arguments?: unknown;
  readonly content?: unknown;
}

function blockText(block: BlockLike, out: string[]): void {
  if (typeof block.text === 'string') out.push(block.text);
  if (typeof block.name === 'string') out.push(block.name);
  if (typeof block.arguments === 'string') out.push(block.arguments);
  if (Array.isArray(block.content)) for (const inner of block.content as BlockLike[]) blockText(inner, out);
}

interface MessageLike {
  readonly content: readonly unknown[];
}

/** A logged `tool/result` event, as far as the engine reads it. */
interface ResultEvent {
  readonly seq: number;
  readonly type: string;
  readonly surfaceOp?: unknown;
  readonly data: {
    readonly turn: number;
    readonly message: MessageLike & {
      readonly content: readonly {
        readonly toolCallId?: unknown;
        readonly content?: unknown;
        readonly isError?: unknown;
      }[];
    };
  };
}

/** The session surface the harness exposes (dsh-session's `Session`), as far as the engine uses it. */
interface SurfaceSession {
  readonly header?: { readonly id?: string };
  readonly surface: { readonly nodes: readonly number[] };
  readonly events: readonly ResultEvent[];
  append(
    type: string,
    data: unknown,
    options?: { surfaceOp: { op: 'replace'; start: number; end: number }; sourceEventSeqs: number[] },
  ): { seq: number };
  deriveMessages(): readonly MessageLike[];
  requestContext?(): { readonly contextWindow?: number } | undefined;
}

/** What a pre-step payload offers: the agent (and its session, when it has one) and the new input. */
export interface PreStepView {
  readonly turn: unknown;
  readonly messages: readonly MessageLike[];
  readonly agent?: { readonly session?: Partial<SurfaceSession> };
  readonly signal?: AbortSignal;
}

type Observed = Omit<Observation, 'callId'>;

/** A prepared replacement, or `keep` when the result stays as it is. */
type Prepared =
  | { readonly text: string; readonly before: number; readonly after: number; readonly toolName: string }
  | 'keep';

/** Per turn, what the engine replaced so far: results and tokens before -> after. */
interface TurnReport {
  results: number;
  before: number;
  after: number;
}

function isSurfaceSession(session: Partial<SurfaceSession> | undefined): session is SurfaceSession {
  return (
    session !== undefined &&
    typeof session.append === 'function' &&
    Array.isArray(session.surface?.nodes) &&
    Array.isArray(session.events) &&
    typeof session.deriveMessages === 'function'
  );
}

/**
 * The notice without its how-to line and hint: a replacement keeps the marker (what
 * `ccr_retrieve` takes, as its description says) and the spill location (still
 * there once the store's TTL is over); the model has been shown the full
 * notice on every compressed result.
 */
function shortNotice(notice: string): string {
  return notice
    .split('\n')
    .filter((line) => !line.startsWith('[original: '))
    .map((line) => (line.startsWith('[also saved: ') ? line.replace(/ \([^()]*\)\]$/, ']') : line))
    .join('\n');
}

const pct = (fill: number) => `${Math.round(fill * 100)}%`;

export class ContextEngine {
  private fill: number | undefined;
  private readonly observed = new Map<string, Observed>();
  private readonly prepared = new Map<number, Prepared>();
  private readonly report = new Map<number, TurnReport>();
  private rewriteCount = 0;
  /** Messages are frozen and shared by the session, so each is priced once. */
  private readonly priced = new WeakMap<object, number>();

  constructor(
    private readonly config: EngineConfig,
    private readonly deps: EngineDeps,
  ) {}

  /** The last measured fill as a fraction of the window, once a pre-step has run. */
  contextFill(): number | undefined {
    return this.fill;
  }

  /** Rewrites so far: each one breaks the provider's prefix cache once. */
  rewrites(): number {
    return this.rewriteCount;
  }

  observe(observation: Observation): void {
    const { callId, ...observed } = observation;
    this.observed.set(callId, observed);
  }

  private price(message: MessageLike): number {
    const known = this.priced.get(message);
    if (known !== undefined) return known;
    const parts: string[] = [];
    for (const block of message.content) if (block && typeof block === 'object') blockText(block as BlockLike, parts);
    const tokens = this.deps.estimator.estimate(parts.join('\n'));
    if (Object.isFrozen(message)) this.priced.set(message, tokens);
    return tokens;
  }

  private measure(history: readonly MessageLike[], input: readonly MessageLike[]): number {
    let tokens = 0;
    for (const message of history) tokens += this.price(message);
    for (const message of input) tokens += this.price(message);
    return tokens;
  }

  /** Measures the fill and, over the threshold, replaces one batch of old results. */
  async preStep(payload: PreStepView): Promise<void> {
    const session = payload.agent?.session;
    const windowTokens = session?.requestContext?.()?.contextWindow ?? this.config.contextWindowTokens;
    const tokens = this.measure(session?.deriveMessages?.() ?? [], payload.messages);
    this.fill = tokens / windowTokens;
    if (this.fill * 100 < this.config.contextEngineThresholdPct || !isSurfaceSession(session)) return;
    const turn =
      typeof payload.turn === 'number' && Number.isFinite(payload.turn) ? payload.turn : Number.POSITIVE_INFINITY;
    const batch = selectBatch(this.resultNodes(session), turn, this.config);
    const ready: { node: ResultNode & { event: ResultEvent }; replacement: Exclude<Prepared, 'keep'> }[] = [];
    for (const node of batch) {
      const replacement = await this.prepare(session, node.event);
      if (replacement !== 'keep') ready.push({ node, replacement });
    }
    if (payload.signal?.aborted) return;
    const saving = ready.reduce((sum, r) => sum + r.replacement.before - r.replacement.after, 0);
    if (saving <= 0 || saving * 100 < windowTokens * this.config.contextEngineBatchPct) return;
    const replaced = this.replace(session, ready);
    if (replaced.length === 0) return;
    this.rewriteCount++;
    for (const { node, replacement } of replaced) {
      const turnReport = this.report.get(node.turn) ?? { results: 0, before: 0, after: 0 };
      turnReport.results++;
      turnReport.before += replacement.before;
      turnReport.after += replacement.after;
      this.report.set(node.turn, turnReport);
    }
    const after = this.measure(session.deriveMessages(), payload.messages);
    this.fill = after / windowTokens;
    this.deps.ledger(
      `ccr: engine rewrite ${this.rewriteCount}: replaced ${replaced.length} results, context ${count(tokens)} -> ${count(after)} tokens (${pct(tokens / windowTokens)} -> ${pct(this.fill)} of ${count(windowTokens)})`,
    );
    for (const [t, r] of [...this.report.entries()].sort((a, b) => a[0] - b[0])) {
      this.deps.ledger(
        `ccr: engine report turn ${t}: ${r.results} results replaced, ${count(r.before)} -> ${count(r.after)} tokens`,
      );
    }
  }

  /** The surface's tool results, oldest first, each marked replaceable or not. */
  private resultNodes(session: SurfaceSession): (ResultNode & { event: ResultEvent })[] {
    const base = session.events[0]?.seq ?? 0;
    const nodes: (ResultNode & { event: ResultEvent })[] = [];
    for (const seq of session.surface.nodes) {
      const event = session.events[seq - base];
      if (event?.type !== 'tool/result') continue;
      const callId = event.data.message.content[0]?.toolCallId;
      const observed = typeof callId === 'string' ? this.observed.get(callId) : undefined;
      const replaceable =
        // replaced by anyone (this engine, DSH's pruner): never touched again
        event.surfaceOp === 'append' &&
        observed !== undefined &&
        // a failed call (a tool that threw, a denied call) stays as the model saw it: errors stay visible
        !observed.isError &&
        observed.toolName !== RETRIEVE_TOOL &&
        !this.config.contextEngineKeepTools.includes(observed.toolName) &&
        this.prepared.get(seq) !== 'keep';
      nodes.push({ seq, turn: event.data.turn, replaceable, event });
    }
    return nodes;
  }

  /** The replacement for one result (cached per node), or `keep`. */
  private async prepare(session: SurfaceSession, event: ResultEvent): Promise<Prepared> {
    const known = this.prepared.get(event.seq);
    if (known !== undefined) return known;
    const result = await this.build(session, event).catch((error: unknown) => {
      this.deps.warn(
        `squeeze: context engine: could not prepare a replacement (${error instanceof Error ? error.message : String(error)}); result kept`,
      );
      return 'keep' as const;
    });
    this.prepared.set(event.seq, result);
    return result;
  }

  private async build(session: SurfaceSession, event: ResultEvent): Promise<Prepared> {
    const block = event.data.message.content[0]!;
    const callId = block.toolCallId as string;
    const observed = this.observed.get(callId)!;
    const visible = Array.isArray(block.content) ? plainText(block.content as Block[]) : undefined;
    if (visible === undefined || visible.trim() === '') return 'keep';
    // Compressed when it arrived: its original is in the store. Left alone: the model saw the original.
    const marker = observed.id === undefined ? -1 : visible.lastIndexOf(`<<<CCR:${observed.id}|`);
    const original = marker >= 0 ? await this.deps.original(observed.id!) : visible;
    if (original === undefined) return 'keep';
    const before = this.deps.estimator.estimate(visible);
    const form = await this.deps.compress(original, {
      toolName: observed.toolName,
      ...(observed.command !== undefined ? { command: observed.command } : {}),
      level: 'emergency',
      // however small: the share below decides whether a replacement pays
      minTokens: 1,
    });
    if (form.outcome !== 'compressed' || this.deps.estimator.estimate(form.output) > before * MAX_REPLACED_SHARE)
      return 'keep';
    // The notice the model was shown stays, byte for byte, but for its how-to line; a result left alone is kept now
    // (its notice has no verdict line: the form above shows the lines the verdict is read from).
    const notice =
      marker >= 0
        ? visible.slice(marker)
        : await this.deps.retain(visible, {
            toolName: observed.toolName,
            callId,
            type: ccrType(observed.toolName, observed.isError, visible),
            sessionId: session.header?.id,
          });
    if (notice === undefined) return 'keep';
    const text = `${form.output.replace(/\n+$/, '')}\n${shortNotice(notice)}`;
    const after = this.deps.estimator.estimate(text);
    return after <= before * MAX_REPLACED_SHARE ? { text, before, after, toolName: observed.toolName } : 'keep';
  }

  /**
   * Appends the replacements, each right after its shadow price when a token
   * meter is loaded (the two must be adjacent). A node that left the surface
   * while the batch was prepared (a compaction summarized it) is skipped; a
   * rejected append ends the batch, the ones before it stand.
   */
  private replace<T extends { node: ResultNode & { event: ResultEvent }; replacement: Exclude<Prepared, 'keep'> }>(
    session: SurfaceSession,
    ready: readonly T[],
  ): T[] {
    const done: T[] = [];
    const price = this.deps.shadowPrice();
    for (const item of ready) {
      const { event } = item.node;
      if (!session.surface.nodes.includes(event.seq)) continue;
      const message = event.data.message;
      const [result] = message.content;
      const replacement = freezeMessage({
        ...message,
        content: [{ ...result, content: [{ type: 'text', text: item.replacement.text }] }],
      } as never);
      const range = { start: event.seq, end: event.seq };
      try {
        if (price)
          session.append('compaction/prune', {
            shadowedRange: range,
            shadowedSeqs: [event.seq],
            shadowedTokenCount: price(message),
          });
        session.append(
          'tool/result',
          { ...event.data, message: replacement },
          { surfaceOp: { op: 'replace', ...range }, sourceEventSeqs: [event.seq] },
        );
      } catch (error) {
        this.deps.warn(
          `squeeze: context engine: the session refused a replacement (${error instanceof Error ? error.message : String(error)}); the rest of the batch is kept`,
        );
        break;
      }
      this.deps.ledger(
        `ccr: engine replaced ${item.replacement.toolName} (turn ${item.node.turn}) ${count(item.replacement.before)} -> ${count(item.replacement.after)} tokens`,
      );
      done.push(item);
    }
    return done;
  }
}
