// The context engine (docs/GLOSSARY.md; off by default): measures how full
// the model's context is at every `agent/pre-step`, hands that fill to the
// compressor (the level follows it) and archives the middle turns'
// results into the CCR store once the fill crosses the threshold. The harness
// gives pre-step no channel to rewrite history, so archiving stores and tracks;
// it does not remove bytes from the context (docs/GLOSSARY.md, Context engine).
import type { TokenEstimator } from '../../index.js';

export interface EngineConfig {
  readonly contextEngineThresholdPct: number;
  readonly protectFirstTurns: number;
  readonly protectLastTurns: number;
  readonly contextWindowTokens: number;
}

/** One tool result the post-execute listener saw: its text, or the id it is already stored under (then the text is dropped). */
export interface Observation {
  readonly toolName: string;
  readonly isError: boolean;
  readonly text: string;
  readonly id?: string;
}

export interface ObservedResult extends Observation {
  readonly turn: number;
}

/** The fill, in tokens, at which archiving starts. */
export function thresholdTokens(windowTokens: number, pct: number): number {
  return Math.floor((windowTokens * pct) / 100);
}

/** The middle: past the first `protectFirst` turns and at or before `currentTurn - protectLast`. */
export function eligible<T extends { readonly turn: number }>(
  records: readonly T[],
  currentTurn: number,
  protectFirst: number,
  protectLast: number,
): T[] {
  return records.filter((r) => r.turn > protectFirst && r.turn <= currentTurn - protectLast);
}

/** The records to archive now, or undefined (under the threshold, or nothing in the middle). */
export function decide<T extends { readonly turn: number }>(
  records: readonly T[],
  currentTurn: number,
  fillTokens: number,
  windowTokens: number,
  config: EngineConfig,
): T[] | undefined {
  if (fillTokens < thresholdTokens(windowTokens, config.contextEngineThresholdPct)) return undefined;
  const middle = eligible(records, currentTurn, config.protectFirstTurns, config.protectLastTurns);
  return middle.length > 0 ? middle : undefined;
}

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

/** What a pre-step payload offers for measuring: the history (when the agent has a session) and the new input. */
export interface PreStepView {
  readonly turn: unknown;
  readonly messages: readonly { readonly content: readonly unknown[] }[];
  readonly agent?: {
    readonly session?: {
      deriveMessages?(): readonly { readonly content: readonly unknown[] }[];
      requestContext?(): { readonly contextWindow?: number } | undefined;
    };
  };
}

export class ContextEngine {
  private turn = 1;
  private fill: number | undefined;
  private records: ObservedResult[] = [];
  /** Messages are frozen and shared by the session, so each is priced once. */
  private readonly priced = new WeakMap<object, number>();

  constructor(
    private readonly config: EngineConfig,
    private readonly estimator: TokenEstimator,
    /** Stores one record through the compress path; true when it is now retrievable. */
    private readonly archive: (record: ObservedResult) => boolean,
    private readonly onArchived: (count: number) => void,
  ) {}

  /** The last measured fill as a fraction of the window, once a pre-step has run. */
  contextFill(): number | undefined {
    return this.fill;
  }

  observe(observation: Observation): void {
    // A stored result is archived by id alone: do not hold its text twice.
    const record = observation.id === undefined ? observation : { ...observation, text: '' };
    this.records.push({ ...record, turn: this.turn });
  }

  private price(message: { readonly content: readonly unknown[] }): number {
    const known = this.priced.get(message);
    if (known !== undefined) return known;
    const parts: string[] = [];
    for (const block of message.content) if (block && typeof block === 'object') blockText(block as BlockLike, parts);
    const tokens = this.estimator.estimate(parts.join('\n'));
    if (Object.isFrozen(message)) this.priced.set(message, tokens);
    return tokens;
  }

  /** Measures the fill and archives the middle when it is over the threshold. */
  preStep(payload: PreStepView): void {
    this.turn = typeof payload.turn === 'number' && Number.isFinite(payload.turn) && payload.turn >= 1 ? payload.turn : this.turn + 1;
    const session = payload.agent?.session;
    const history = session?.deriveMessages?.() ?? [];
    const windowTokens = session?.requestContext?.()?.contextWindow ?? this.config.contextWindowTokens;
    let tokens = 0;
    for (const message of history) tokens += this.price(message);
    for (const message of payload.messages) tokens += this.price(message);
    this.fill = tokens / windowTokens;
    const chosen = decide(this.records, this.turn, tokens, windowTokens, this.config);
    if (chosen === undefined) return;
    let archived = 0;
    for (const record of chosen) if (record.id !== undefined || this.archive(record)) archived++;
    const leaving = new Set(chosen);
    this.records = this.records.filter((r) => !leaving.has(r));
    if (archived > 0) this.onArchived(archived);
  }
}
