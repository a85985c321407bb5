// Types shared by the pipeline, the processors and the adapters.
import type { TextAnalysis } from './engine/index.js';

/** One run of original lines: 1-based `start`, `count` lines. */
export interface Span {
  readonly start: number;
  readonly count: number;
}

/** Original lines a result leaves out, as data: 1-based `start`, as in its markers. */
export interface Omission extends Span {
  /** Identical lines shown once (`[×N lines a–b] line`): the first of them is the one shown. */
  readonly collapsed?: true;
}

/**
 * An omission as a processor (or a later stage) reports it beside its output,
 * so nothing reads the markers back: `at` is the 0-based line of the text it
 * was given before which the marker sits (the first line it names, for a
 * marker of consecutive lines; a list marker sits where its summary does).
 */
export interface PlacedOmission extends Omission {
  readonly at: number;
}

/** What a text can be, for routing: one processor per kind (the one list of kinds). */
export const CONTENT_KINDS = [
  'log',
  'json',
  'html',
  'text',
  'grep',
  'listing',
  'table',
  'code',
  'diff',
  'gitlog',
  'binary',
] as const;

export type ContentKind = (typeof CONTENT_KINDS)[number];

/** The compression levels, from gentlest to harshest (docs/GLOSSARY.md, Level). */
export type Level = 'lossless' | 'light' | 'aggressive' | 'emergency';

/** The estimator interface: tokens a text costs in the model's context. */
export interface TokenEstimator {
  estimate(text: string): number;
}

/**
 * Counts of what a processor left out, by kind of line or item, e.g.
 * { 'INFO lines': 1198, 'DEBUG lines': 6 } or { 'array items': 480 }.
 */
export type Omitted = Record<string, number>;

/** What a processor is given: the text, its lazy kernel analysis and a budget. */
export interface ProcessorInput {
  readonly text: string;
  /** Kernels over this text (line table, duplicate groups, templates, classes, tokens). */
  readonly analysis: TextAnalysis;
  /** lossless, light or aggressive (the pipeline handles emergency itself). */
  readonly level: Exclude<Level, 'emergency'>;
  /** Tokens the output should fit in; evidence may exceed it up to `maxTokens`. */
  readonly budget: number;
  /** The hard ceiling for the output. */
  readonly maxTokens: number;
  readonly estimator: TokenEstimator;
  /** Verbatim strings that must survive (the preserved items found in the text). */
  readonly preserve: readonly string[];
  readonly toolName?: string | undefined;
  /** The search pattern when the host knows it (a grep tool's arguments): finds the match in long lines. */
  readonly pattern?: string | undefined;
  /**
   * True once the call's time budget is spent. A processor's long loops (a
   * budget search's tries, a pass over files or commits) ask it between steps
   * and then stop (checkDeadline in src/processors/errors.ts); the pipeline
   * returns the best output it has, at worst the emergency form.
   */
  readonly expired?: (() => boolean) | undefined;
}

/**
 * Lines of one kind that carry a text's structure (a diff's file headers, a
 * log's commit lines): over the ceiling they are kept before any sample.
 */
export interface SkeletonPart {
  /** What one line is, as the markers counting those left out say it: 'file header' (`3 file headers`). */
  readonly name: string;
  /** Indices into the analysis' line table, ascending. */
  readonly lines: readonly number[];
  /** Where each line belongs (parallel to `lines`, e.g. its directory): gaps count their lines per place. */
  readonly places?: readonly string[];
}

/** A processor's skeleton of a text: its parts, the most important first. */
export type Skeleton = readonly SkeletonPart[];

export interface ProcessorOutput {
  readonly text: string;
  readonly omitted: Omitted;
  /**
   * The original lines its markers leave out, as data, in the markers' order
   * and numbered as the text it was given (the pipeline renumbers them with
   * the markers): nothing reads an output back to find them. Extractions
   * (JSON, HTML), whose markers name paths and headings, report none.
   */
  readonly omissions: readonly PlacedOmission[];
  /**
   * The maxTokens the processor was given, when the output is still over it
   * after every step the processor takes to fit, each taken while over it:
   * any maxTokens at or below it gives this same output, so the ceiling does
   * not ask again with less (a diff whose headers alone are over).
   */
  readonly floor?: number;
}

/**
 * One processor per content kind, all of this shape, registered in
 * src/processors/index.ts. `process` may throw: the pipeline then fails open.
 * Output must never invent text: every line is original text, a collapse or an
 * omission marker (src/processors/markers.ts) with exact counts.
 */
export interface Processor {
  readonly kind: ContentKind;
  /**
   * Every output line that is not a squeeze marker is a whole original line:
   * preserved lines can then be demanded verbatim, and blocks seen in recent
   * results can be replaced by references before the processor runs.
   */
  readonly lineShaped: boolean;
  /**
   * Its lines begin with a file path (`'prefix'`: grep hits) or are one
   * (`'whole'`: listings). Logs take these shapes too (timestamps, paths), so
   * sniffing alone claims such a text only when near-certain (a sniff of 0.95
   * or more, the sniffer counting only lines that name files in its shapes).
   */
  readonly pathLines?: 'prefix' | 'whole';
  /**
   * True when a sniff of this kind outranks the tool and the command that
   * printed the text (binary data is binary whatever printed it): routing
   * asks it first.
   */
  readonly claimsFirst?: boolean;
  /** Where a text goes when this processor cannot handle it (default: the text processor). */
  readonly fallback?: ContentKind;
  /**
   * Host tool names whose results are this kind (routing trusts these first),
   * each with the CCR type its originals are filed under: the one table of tool
   * names (src/pipeline/ccr.ts adds only the tools no processor claims).
   */
  readonly tools?: Readonly<Record<string, CcrType>>;
  /**
   * Shell commands whose output is this kind, each a program name optionally
   * followed by its subcommand: 'git diff', 'ls', 'cargo build'. Routing
   * matches them against the command line the model ran (second in trust).
   */
  readonly commands?: readonly string[];
  /**
   * File extensions (without the dot) whose contents are this kind, for
   * commands that print a file (`cat src/a.ts`, `head -n 50 data.json`).
   */
  readonly fileExtensions?: readonly string[];
  /**
   * True when the lossless form must not be cut just for being over
   * targetTokens: it is already an extraction (HTML without its markup and
   * chrome), or exactly what the model asked to see (a file `read`). Such a
   * text stays lossless up to maxTokens (no early escalation, no references to
   * lines of earlier results); only past maxTokens does it go harsher.
   */
  readonly losslessUpToMax?: boolean;
  /**
   * True when the text is what the model asked to see and the producing tool
   * already bounded it (a `read` within the read tool's window): it passes
   * byte-identical at lossless and light, even over maxTokens; only
   * aggressive and emergency (context pressure) cut it.
   */
  shownWhole?(text: string): boolean;
  /**
   * The lines that carry the text's structure, read from the analysis (its
   * line slices and classes, not the text again): over the ceiling they are
   * kept before any sample, and cut by position with counts only when they
   * alone are over it.
   */
  skeleton?(analysis: TextAnalysis): Skeleton;
  /**
   * Its texts may be what runners and compilers print (build, test and service
   * logs; unclaimed text): the verdict gate reads a verdict only from these, or
   * from what a command such a processor claims printed (src/pipeline/verdict/gate.ts).
   */
  readonly runOutput?: boolean;
  /**
   * True when runs of lines of one shape (differing only in timestamps, ids,
   * counters, hashes) may be folded to their first line or block and a counted
   * marker at the lossless level (src/pipeline/shapes.ts):
   * output whose lines are records, not content read for its own sake.
   * 'exact': each varying field's values are all given (counted in equal steps,
   * or listed in turn), for records whose every field is read (a listing's sizes).
   */
  readonly foldsShapes?: boolean | 'exact';
  /**
   * Confidence in [0, 1] that the analysed text is of this kind (content
   * sniffing), read from its head lines and features (src/processors/head.ts).
   * 1 is certainty (the whole text parses as this kind's document): from a
   * processor that is not line-shaped it outranks a producing program's claim
   * of a line-shaped kind (src/pipeline/route.ts, certainDocument).
   */
  sniff(analysis: TextAnalysis): number;
  process(input: ProcessorInput): ProcessorOutput;
}

/** The retrieval types a stored original is filed under (they name its preview: `[terminal:exit 1 | …]`). */
export const CCR_TYPES = ['error', 'terminal', 'grep', 'paths', 'file', 'json', 'web', 'default'] as const;

export type CcrType = (typeof CCR_TYPES)[number];
