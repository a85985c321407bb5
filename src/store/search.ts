// Grep over an original's lines, safe on patterns that come from a model (and
// so from whatever text it read): RE2 semantics through re2js, whose automata
// match in time linear in the text, so no pattern can backtrack for minutes.
// re2js (pure JavaScript) over re2-wasm: its DFA answers a line in about a
// microsecond where re2-wasm pays a UTF-8 copy into WebAssembly per call,
// 2-450x slower on originals of many lines (bench/grep-engines.ts), and it
// needs no WebAssembly. Work is cut into slices so an async caller can yield between
// them (the harness's timers keep running) and stops at a deadline with an
// honest partial answer instead of running on.
import { RE2JS } from 're2js';
import { count, utf8Bytes } from '../text/strings.js';

/** Longest pattern accepted, in characters: a longer one is refused before compiling. */
export const MAX_PATTERN_CHARS = 1000;
/** Matching lines shown before "[… N more matches …]" unless the request says otherwise. */
export const DEFAULT_MAX_MATCHES = 200;
/** Bytes of matching lines shown at most (under the harness's 50,000-byte inline cap). */
export const MAX_OUTPUT_BYTES = 32 * 1024;
/** Characters of one matching line shown; the rest is named, and a range returns it whole. */
export const MAX_LINE_CHARS = 2000;
/** Work after which a search stops and says where: no request runs on for long. */
export const SEARCH_DEADLINE_MS = 2000;
/** Work between two yields of an async search: the event loop waits at most about this long. */
export const SLICE_MS = 10;
/** Lines tested as one block first: a block with no match costs one automaton pass. */
const BLOCK_LINES = 64;

export interface SearchRequest {
  readonly grep: string;
  /** Match `grep` as plain text. */
  readonly literal?: boolean;
  readonly ignoreCase?: boolean;
  readonly maxMatches?: number;
}

/** A pattern that cannot be searched for, with a message saying what to do instead. */
export class PatternError extends Error {
  override readonly name = 'PatternError';
}

const ADVICE =
  'Simplify the pattern, or match it as plain text (ccr_retrieve: "literal": true; squeeze retrieve: --literal).';

/** A short, safe quotation of a model-supplied fragment (never the whole of a long pattern). */
function quote(fragment: string): string {
  return JSON.stringify(fragment.length > 40 ? `${fragment.slice(0, 40)}…` : fragment);
}

/** What RE2 lacks, said in the words a regex user knows. */
function unsupported(pattern: string): string | undefined {
  if (/\\[1-9]/.test(pattern)) return 'backreferences (\\1 … \\9) are not supported';
  if (/\(\?<?[=!]/.test(pattern)) return 'lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported';
  return undefined;
}

interface Compiled {
  readonly line: RE2JS;
  /** The same pattern over a block of lines joined by LF, or null when the pattern could tell a block from a line. */
  readonly block: RE2JS | null;
}

/**
 * Compiles a grep request, or throws a PatternError whose message says what
 * to do. Patterns use RE2 syntax (a JavaScript-like subset without
 * backreferences or lookaround).
 */
export function compileSearch(request: SearchRequest): Compiled {
  const { grep } = request;
  if (grep.length > MAX_PATTERN_CHARS) {
    throw new PatternError(
      `The grep pattern is ${count(grep.length)} characters long; the limit is ${count(MAX_PATTERN_CHARS)}. ` +
        'Search for a shorter distinctive part of the line (plain text works: "literal": true, or --literal).',
    );
  }
  const source = request.literal ? RE2JS.quote(grep) : grep;
  const flags = request.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  let line: RE2JS;
  try {
    line = RE2JS.compile(source, flags);
  } catch (error) {
    const reason =
      unsupported(grep) ??
      (error as Error).message.replace(/^error parsing regexp: /, '').replace(/`([^`]*)`/g, (_, f: string) => quote(f));
    throw new PatternError(`Invalid grep pattern: ${reason}. Patterns use RE2 syntax. ${ADVICE}`, { cause: error });
  }
  // Per line, ^ $ \b see line edges; in a block joined by LF with MULTILINE
  // they see the same edges, so a block without a match has no matching line.
  // Text anchors (\A, \z) and inline flags ((?-m), (?s)) could tell the two
  // apart: such patterns are tested line by line only.
  const blockSafe = request.literal || !/\\[Az]|\(\?[a-zA-Z-]/.test(grep);
  return { line, block: blockSafe ? RE2JS.compile(source, flags | RE2JS.MULTILINE) : null };
}

/** The lines to search: each line's start and content end (without its break) in `text`. */
export interface LineSpans {
  readonly text: string;
  readonly start: ArrayLike<number>;
  readonly end: ArrayLike<number>;
}

export interface SearchOutcome {
  /** Matching lines as `N: line` (1-based), then "[… N more matches …]" or the stop notice. */
  readonly text: string;
  /** Matching lines found (in the searched part when the search stopped early). */
  readonly matches: number;
  /** The search stopped at the deadline before this 0-based line. */
  readonly stoppedAt?: number;
}

/** One shown line, cut past MAX_LINE_CHARS with a note on how to get all of it. */
function shownLine(number: number, line: string): string {
  if (line.length <= MAX_LINE_CHARS) return `${number}: ${line}`;
  const rest = line.length - MAX_LINE_CHARS;
  return `${number}: ${line.slice(0, MAX_LINE_CHARS)} [… ${count(rest)} more characters of line ${number}; range {"start": ${number}, "count": 1} returns it whole …]`;
}

/**
 * Searches lines [from, to) and yields between slices of about SLICE_MS of
 * work (a generator: the sync driver runs it through, the async one awaits
 * between slices). Returns the shown lines and counts.
 */
export function* searchLines(
  lines: LineSpans,
  from: number,
  to: number,
  request: SearchRequest,
  compiled = compileSearch(request),
): Generator<void, SearchOutcome> {
  const { text, start, end } = lines;
  const maxMatches = request.maxMatches ?? DEFAULT_MAX_MATCHES;
  // Blocks are matched with LF line breaks: a CR (alone or before LF) becomes
  // LF, same length, so offsets stay those of `text`.
  const joined = compiled.block !== null && text.includes('\r') ? text.replace(/\r/g, '\n') : text;
  const shown: string[] = [];
  let shownBytes = 0;
  let matches = 0;
  let truncated = false;
  const began = performance.now();
  let sliceStart = began;
  let stoppedAt: number | undefined;
  const test = (i: number) => compiled.line.test(text.slice(start[i]!, end[i]!));
  for (let block = from; block < to; block += BLOCK_LINES) {
    const now = performance.now();
    if (now - began > SEARCH_DEADLINE_MS) {
      stoppedAt = block;
      break;
    }
    if (now - sliceStart > SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
    const last = Math.min(to, block + BLOCK_LINES);
    // A block of one line is that line: testing it twice would double the cost of one huge line.
    if (
      compiled.block !== null &&
      last - block > 1 &&
      !compiled.block.test(joined.slice(start[block]!, end[last - 1]!))
    )
      continue;
    for (let i = block; i < last; i++) {
      if (!test(i)) continue;
      matches++;
      if (shown.length >= maxMatches || truncated) continue;
      const entry = shownLine(i + 1, text.slice(start[i]!, end[i]!));
      const bytes = utf8Bytes(entry) + 1;
      if (shownBytes + bytes > MAX_OUTPUT_BYTES && shown.length > 0) {
        truncated = true;
        continue;
      }
      shown.push(entry);
      shownBytes += bytes;
    }
  }
  const hidden = matches - shown.length;
  if (hidden > 0) {
    const why = truncated
      ? ` (the shown lines reached ${count(MAX_OUTPUT_BYTES)} bytes: narrow the pattern or the range)`
      : '';
    shown.push(`[… ${count(hidden)} more ${hidden === 1 ? 'match' : 'matches'}${why} …]`);
  }
  if (stoppedAt !== undefined) {
    shown.push(
      `[… search stopped after ${count(SEARCH_DEADLINE_MS)} ms at line ${stoppedAt + 1} of ${to}; lines ${stoppedAt + 1}–${to} were not searched: ` +
        `ask again with range {"start": ${stoppedAt + 1}} or a simpler pattern …]`,
    );
  }
  return { text: shown.join('\n'), matches, ...(stoppedAt === undefined ? {} : { stoppedAt }) };
}

/** Runs a search to the end on the calling thread. */
export function runSync<T>(work: Generator<void, T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs a search, letting the event loop turn between slices. */
export async function runAsync<T>(work: Generator<void, T>): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
