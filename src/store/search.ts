// Grep over an original's lines, safe on patterns that come from a model (and
// so from whatever text it read): RE2 semantics through re2js, whose automata
// match in time linear in the text, so no pattern can backtrack for minutes.
// re2js (pure JavaScript) over re2-wasm: its DFA answers a line in about a
// microsecond where re2-wasm pays a UTF-8 copy into WebAssembly per call,
// 2-450x slower on originals of many lines (bench/grep-engines.ts), and it
// needs no WebAssembly. Work is cut into slices so an async caller can yield between
// them (the harness's timers keep running) and stops at a deadline with an
// honest partial answer instead of running on.
import { RE2JS, RE2Set } from 're2js';
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
/** Lines tested as one block first (at most a piece of characters): a block with no match costs one automaton pass. */
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
  /** The pattern could match at an end of its input ($, \z, \b, \B), so a piece's end needs care. */
  readonly seesEnd: boolean;
  /**
   * For such a pattern, the pattern followed by any one character: a piece
   * that is not the line's end is tested with it and the character after the
   * piece, so a match must have the line's real next character after it
   * (never the piece's edge). null when the pattern holds a \Q (its quote
   * would take the suffix in): then the match's end is checked instead.
   */
  readonly beforeEdge: RE2JS | null;
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
  const seesEnd = !request.literal && /\$|\\[zbB]/.test(grep);
  return {
    line,
    block: blockSafe ? RE2JS.compile(source, flags | RE2JS.MULTILINE) : null,
    seesEnd,
    beforeEdge: seesEnd && !source.includes('\\Q') ? RE2JS.compile(`(?:${source})[\\s\\S]`, flags) : null,
  };
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
  /** The search stopped at the deadline in or before this 0-based line. */
  readonly stoppedAt?: number;
  /** When it stopped: characters searched of the range's text (its lines and the breaks between them). */
  readonly searched?: { readonly chars: number; readonly of: number };
  /**
   * Lines searched in pieces (the pattern was too slow to test them whole)
   * that did not match: a match longer than the overlap across two pieces
   * would not have been found there. Absent when there were none.
   */
  readonly piecedWithoutMatch?: { readonly lines: number; readonly first: number };
}

/** One shown line, cut past MAX_LINE_CHARS with a note on how to get all of it. */
function shownLine(number: number, line: string): string {
  if (line.length <= MAX_LINE_CHARS) return `${number}: ${line}`;
  const rest = line.length - MAX_LINE_CHARS;
  return `${number}: ${line.slice(0, MAX_LINE_CHARS)} [… ${count(rest)} more characters of line ${number}; range {"start": ${number}, "count": 1} returns it whole …]`;
}

/**
 * How a search spends its time. One step tests at most `pieceChars` of new
 * text (a block of short lines, or a piece of a longer line), then the clock
 * is read: a step that took over half a slice of `work` halves the size, one
 * under an eighth doubles it, between `min` and `max`, so a pattern whose
 * automaton costs microseconds a character still moves in steps of about a
 * slice. `work` is the CPU time this process spent (where it can be read),
 * so a busy machine that stretches every step does not shrink the pieces
 * (each piece pays for its first characters again: small pieces search less).
 */
export interface SearchPace {
  /** Milliseconds of wall time: the deadline and the slices between yields. */
  readonly now: () => number;
  /** Milliseconds of work done, for sizing pieces. */
  readonly work: () => number;
  readonly pieceChars: { readonly first: number; readonly min: number; readonly max: number };
  /**
   * Characters a piece of a long line repeats from the piece before it (or
   * the piece's own length when it is shorter: the repeat costs as much as
   * new text), so a match across their boundary is found when it is at most
   * this long: at least `pieceChars.min` characters always.
   */
  readonly overlapChars: number;
  /**
   * A line longer than a piece is tested whole, in one step, when the work
   * measured so far (milliseconds a character) predicts it takes under this:
   * then a match of any length is found. Otherwise it goes in pieces.
   */
  readonly wholeLineMs: number;
}

/**
 * This thread's CPU time where Node can read it (threadCpuUsage, Node 23.9+),
 * else the process's (which counts a worker compressing meanwhile: pieces
 * then only get smaller), else wall time (a browser).
 */
function cpuClock(): () => number {
  const node = globalThis.process as
    | (NodeJS.Process & { threadCpuUsage?: () => { user: number; system: number } })
    | undefined;
  const read = node?.threadCpuUsage?.bind(node) ?? node?.cpuUsage?.bind(node);
  if (typeof read !== 'function') return () => performance.now();
  return () => {
    const { user, system } = read();
    return (user + system) / 1000;
  };
}

export const SEARCH_PACE: SearchPace = {
  now: () => performance.now(),
  work: cpuClock(),
  pieceChars: { first: 1024, min: 512, max: 4096 },
  overlapChars: 1024,
  wholeLineMs: SLICE_MS,
};

/**
 * Whether `line` has a match starting at or after `from` and within [0, to),
 * with the text before `from` as context (so ^, \A and \b see the real
 * neighbour). The input ends at `to`, where $, \z and \b would see an end the
 * line does not have: when the pattern uses them and `to` is not the line's
 * end, a match is taken only when it ends before `to` (the next piece, which
 * overlaps, tests what ends there).
 */
function matchesWithin(compiled: Compiled, line: string, from: number, to: number): boolean {
  if (to < line.length && compiled.beforeEdge !== null) {
    // One character past the piece: the pattern's match must end at or before
    // the edge with the line's real next character after it. A boolean test,
    // as cheap as the plain one (no capture groups to track).
    const [found] = compiled.beforeEdge.re2().matchWithGroup(line.slice(0, to + 1), from, to + 1, RE2Set.UNANCHORED, 0);
    return found;
  }
  const input = to === line.length ? line : line.slice(0, to);
  const re2 = compiled.line.re2();
  const [found] = re2.matchWithGroup(input, from, to, RE2Set.UNANCHORED, 0);
  if (!found || to === line.length || !compiled.seesEnd) return found;
  const [, group] = re2.matchWithGroup(input, from, to, RE2Set.UNANCHORED, 1);
  return (group as number[])[1]! < to;
}

/**
 * Searches lines [from, to) and yields between slices of about SLICE_MS of
 * work (a generator: the sync driver runs it through, the async one awaits
 * between slices). No step tests more than a piece (SearchPace), a line
 * longer than a piece included: it is tested in overlapping pieces. Returns
 * the shown lines and counts.
 */
export function* searchLines(
  lines: LineSpans,
  from: number,
  to: number,
  request: SearchRequest,
  compiled = compileSearch(request),
  pace: SearchPace = SEARCH_PACE,
): Generator<void, SearchOutcome> {
  const { text, start, end } = lines;
  const { now, work, overlapChars } = pace;
  const maxMatches = request.maxMatches ?? DEFAULT_MAX_MATCHES;
  // Blocks are matched with LF line breaks: a CR (alone or before LF) becomes
  // LF, same length, so offsets stay those of `text`.
  const joined = compiled.block !== null && text.includes('\r') ? text.replace(/\r/g, '\n') : text;
  const shown: string[] = [];
  let shownBytes = 0;
  let matches = 0;
  let truncated = false;
  const began = now();
  let sliceStart = began;
  let piece = pace.pieceChars.first;
  let stopped: { line: number; char: number } | undefined;

  // Work and characters over every step so far: the rate that predicts a whole line's cost.
  let spentMs = 0;
  let testedChars = 0;
  const fitsOneStep = (chars: number) => testedChars > 0 && (spentMs / testedChars) * chars < pace.wholeLineMs;
  let pieced: { lines: number; first: number } | undefined;
  const paced = (stepStart: number, chars: number) => {
    const took = work() - stepStart;
    spentMs += took;
    testedChars += chars;
    if (took > SLICE_MS / 2) piece = Math.max(pace.pieceChars.min, piece >> 1);
    else if (took < SLICE_MS / 8) piece = Math.min(pace.pieceChars.max, piece * 2);
  };
  /** Yields when the slice is spent; true when the deadline passed. */
  function* pause(): Generator<void, boolean> {
    const at = now();
    if (at - began > SEARCH_DEADLINE_MS) return true;
    if (at - sliceStart > SLICE_MS) {
      yield;
      sliceStart = now();
    }
    return false;
  }
  /**
   * Line i whole when the rate so far says it fits one step, else in pieces:
   * whether it matches, or the character the deadline stopped at.
   */
  function* longLine(i: number): Generator<void, boolean | number> {
    const line = text.slice(start[i]!, end[i]!);
    for (let at = 0; at < line.length; ) {
      if (at > 0 && (yield* pause())) return at;
      const stepStart = work();
      if (fitsOneStep(line.length)) {
        // Exact for matches of any length (the pieces tested so far are tested again).
        const found = compiled.line.test(line);
        paced(stepStart, line.length);
        return found;
      }
      const until = Math.min(line.length, at + piece);
      const from = Math.max(0, at - Math.min(overlapChars, piece));
      const found = matchesWithin(compiled, line, from, until);
      paced(stepStart, until - from);
      if (found) return true;
      at = until;
    }
    if (line.length > 0) pieced = pieced ? { ...pieced, lines: pieced.lines + 1 } : { lines: 1, first: i };
    return false;
  }
  const record = (i: number) => {
    matches++;
    if (shown.length >= maxMatches || truncated) return;
    const entry = shownLine(i + 1, text.slice(start[i]!, end[i]!));
    const bytes = utf8Bytes(entry) + 1;
    if (shownBytes + bytes > MAX_OUTPUT_BYTES && shown.length > 0) {
      truncated = true;
      return;
    }
    shown.push(entry);
    shownBytes += bytes;
  };

  for (let i = from; i < to; ) {
    if (yield* pause()) {
      stopped = { line: i, char: 0 };
      break;
    }
    if (end[i]! - start[i]! > piece) {
      const found = yield* longLine(i);
      if (typeof found === 'number') {
        stopped = { line: i, char: found };
        break;
      }
      if (found) record(i);
      i++;
      continue;
    }
    // A block: whole lines while they fit in a piece, at most BLOCK_LINES.
    const stepStart = work();
    let last = i + 1;
    while (last < to && last - i < BLOCK_LINES && end[last]! - start[i]! <= piece) last++;
    // A block of one line is that line: testing it twice would double the cost of one huge line.
    const skip =
      compiled.block !== null && last - i > 1 && !compiled.block.test(joined.slice(start[i]!, end[last - 1]!));
    if (!skip) for (let k = i; k < last; k++) if (compiled.line.test(text.slice(start[k]!, end[k]!))) record(k);
    paced(stepStart, end[last - 1]! - start[i]!);
    i = last;
  }
  const hidden = matches - shown.length;
  if (hidden > 0) {
    const why = truncated
      ? ` (the shown lines reached ${count(MAX_OUTPUT_BYTES)} bytes: narrow the pattern or the range)`
      : '';
    shown.push(`[… ${count(hidden)} more ${hidden === 1 ? 'match' : 'matches'}${why} …]`);
  }
  if (pieced !== undefined) {
    // Honest about what pieces cannot see: the reader can fetch such a line whole.
    const overlap = Math.min(overlapChars, pace.pieceChars.min);
    const line = pieced.first + 1;
    shown.push(
      `[… ${count(pieced.lines)} ${pieced.lines === 1 ? 'line was' : 'lines were'} too slow for this pattern to test whole and ${pieced.lines === 1 ? 'was' : 'were'} searched in pieces: ` +
        `a match over ${count(overlap)} characters across two pieces is not found there; range {"start": ${line}, "count": 1} returns line ${line} whole …]`,
    );
  }
  const piecedWithoutMatch = pieced === undefined ? {} : { piecedWithoutMatch: pieced };
  if (stopped === undefined) return { text: shown.join('\n'), matches, ...piecedWithoutMatch };
  const rangeChars = to > from ? end[to - 1]! - start[from]! : 0;
  const searchedChars = start[stopped.line]! - start[from]! + stopped.char;
  const line = stopped.line + 1;
  const where =
    stopped.char === 0
      ? `at line ${line} of ${to}; lines ${line}–${to} were not searched: ask again with range {"start": ${line}} or a simpler pattern`
      : `at character ${count(stopped.char + 1)} of line ${line} (${count(end[stopped.line]! - start[stopped.line]!)} characters) of ${to}; ` +
        `the rest was not searched: ask again with a simpler pattern or as plain text`;
  shown.push(
    `[… search stopped after ${count(SEARCH_DEADLINE_MS)} ms ${where}; searched ${count(searchedChars)} of ${count(rangeChars)} characters …]`,
  );
  return {
    text: shown.join('\n'),
    matches,
    stoppedAt: stopped.line,
    searched: { chars: searchedChars, of: rangeChars },
    ...piecedWithoutMatch,
  };
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
