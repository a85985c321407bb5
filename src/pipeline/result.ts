import type { BackendName } from '../engine/index.js';
import type { Omission } from '../processors/markers.js';
import type { ContentKind, Level, Omitted } from '../types.js';
import type { VerdictReport } from './verdict/gate.js';

/** Why a result came out the way it did. */
export type Outcome =
  | 'compressed'
  | 'disabled'
  | 'excluded'
  | 'below-min-tokens'
  | 'not-smaller'
  /** The time budget ran out before any output was ready: the original, untouched. */
  | 'timed-out'
  /** Every compressed form lost a line stating the verdict; the original fits maxTokens: untouched. */
  | 'verdict'
  /** What the model asked to see, already bounded by its tool (a read within the read window), at lossless or light: untouched. */
  | 'asked-for'
  /** The store could not keep the original (the CLI's): the original, untouched, so nothing is out of reach. */
  | 'not-stored'
  | 'failed';

/**
 * A level forced by the caller (the `level` option) that the result could not
 * keep: its output was over maxTokens (so a harsher level or a sampling cut
 * applied), or it lost a preserved item (so the gentler level applied).
 */
export interface LevelNotKept {
  readonly requested: Level;
  readonly reason: 'over-max-tokens' | 'preserved-item-lost';
}

/** What `compress` did, for hosts, the CLI's --json and the ledger. */
export interface CompressResult {
  /** What the model should see: the compressed text, or the original untouched. */
  readonly output: string;
  readonly outcome: Outcome;
  readonly kind: ContentKind;
  readonly level: Level;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  /** Exact counts of what was left out, by kind of line or item. */
  readonly omitted: Omitted;
  /**
   * The original lines the output leaves out, in order: 1-based `start` (the
   * numbering of its markers and of retrieval's `start`) and `count`. Empty
   * when nothing was cut by lines (a pass-through, or JSON and HTML, whose
   * markers name paths and headings instead).
   */
  readonly omissions: readonly Omission[];
  /** Store id of the original (null when nothing was stored). */
  readonly id: string | null;
  readonly backend: BackendName;
  readonly ms: number;
  /** Set when the caller forced a level the result could not keep (see LevelNotKept). */
  readonly levelNotKept?: LevelNotKept;
  /** The internal error behind outcome 'failed'. */
  readonly error?: unknown;
  /** The output was made without the original's colour and cursor codes (the stored original keeps them; the notice says so). */
  readonly codesRemoved?: true;
  /** The time budget ran out: this is the best output ready then, not the level the rules asked for. */
  readonly timedOut?: true;
  /** Test totals, failing tests, diagnostics and exit status the output stated, and how the gate kept their lines. */
  readonly verdict?: VerdictReport;
}
