// Retrieval of an original by exact id (docs/GLOSSARY.md, Store): whole, a 0-based
// line range that clamps instead of failing, or the lines matching a pattern.
// A miss is a typed result whose message tells the reader what to do. Lines
// end as the kernels' line table says (LF, CRLF or a lone CR), so line numbers
// here are the ones omission markers name.
import { isOriginalId } from './id.js';
import { compileSearch, DEFAULT_MAX_MATCHES, PatternError, runAsync, runSync, searchLines } from './search.js';
import type { OriginalStore } from './types.js';

export interface RetrieveRequest {
  readonly id: string;
  /** 0-based first line and how many lines; clamped to the text (past the end gives ''). */
  readonly range?: { readonly start?: number | undefined; readonly count?: number | undefined };
  /** RE2 pattern (linear-time; no backreferences or lookaround), matched against each line of the text (or of the range). */
  readonly grep?: string;
  /** Match `grep` as a literal string instead of a pattern. */
  readonly literal?: boolean;
  readonly ignoreCase?: boolean;
  /** Matching lines shown before "[… N more matches …]". Default 200. */
  readonly maxMatches?: number;
}

export type RetrieveResult =
  | {
      readonly ok: true;
      readonly id: string;
      readonly type: string;
      /** UTF-8 bytes of the whole original. */
      readonly size: number;
      /** The original, the range's exact bytes, or the matches as `12: line`. */
      readonly text: string;
      /** Lines of the whole original. */
      readonly totalLines: number;
      /** The range actually served (after clamping). */
      readonly lines: { readonly start: number; readonly count: number };
      /** Matching lines in the range, shown or not (grep only; in the searched part when it stopped early). */
      readonly matches?: number;
      /** The grep stopped at its deadline before this 0-based line. */
      readonly stoppedAt?: number;
    }
  | {
      readonly ok: false;
      readonly id: string;
      readonly reason: 'unknown' | 'expired' | 'bad-pattern';
      readonly message: string;
    };

export { DEFAULT_MAX_MATCHES };

/**
 * Start and content end (without the break) of every line. A line ends at LF,
 * CRLF or a lone CR; a final break does not start a new line. Yields now and
 * then: a big original has many lines.
 */
function* lineSpans(text: string): Generator<void, { start: number[]; end: number[] }> {
  const start: number[] = [];
  const end: number[] = [];
  const breaks = /\r\n?|\n/g;
  let from = 0;
  for (let m = breaks.exec(text); m !== null; m = breaks.exec(text)) {
    start.push(from);
    end.push(m.index);
    from = m.index + m[0].length;
    if ((start.length & 0xffff) === 0) yield;
  }
  if (from < text.length) {
    start.push(from);
    end.push(text.length);
  }
  return { start, end };
}

function clampedInteger(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return Math.min(max, Math.max(0, Math.floor(value)));
}

function missMessage(id: string, reason: 'unknown' | 'expired'): string {
  const rerun = 'Re-run the original tool to get its output again.';
  if (reason === 'expired') {
    return `The original ${id} has expired (its time to live in the squeeze store passed) and is no longer kept. ${rerun}`;
  }
  const shape = isOriginalId(id) ? '' : ' (ids are the 24 lowercase hex characters after "<<<CCR:")';
  return `No original is stored under ${JSON.stringify(id)}${shape}: it was never stored here or it was evicted. ${rerun}`;
}

/** Looks the id up (exactly) and serves the whole original, a line range or the matching lines. */
function* retrieval(store: OriginalStore, request: RetrieveRequest): Generator<void, RetrieveResult> {
  const { id } = request;
  let compiled: ReturnType<typeof compileSearch> | undefined;
  if (request.grep !== undefined) {
    try {
      compiled = compileSearch({ ...request, grep: request.grep });
    } catch (error) {
      if (error instanceof PatternError) return { ok: false, id, reason: 'bad-pattern', message: error.message };
      throw error;
    }
  }
  const lookup = store.get(id);
  if (!lookup.found) return { ok: false, id, reason: lookup.reason, message: missMessage(id, lookup.reason) };
  const { text, type, size } = lookup.entry;
  const spans = yield* lineSpans(text);
  const total = spans.start.length;
  const start = clampedInteger(request.range?.start, 0, total);
  const end = start + clampedInteger(request.range?.count, total - start, total - start);
  const lines = { start, count: end - start };
  const base = { ok: true as const, id, type, size, totalLines: total, lines };
  if (compiled === undefined || request.grep === undefined) {
    const whole = start === 0 && end === total;
    return { ...base, text: whole ? text : text.slice(spans.start[start] ?? text.length, spans.start[end] ?? text.length) };
  }
  const maxMatches = clampedInteger(request.maxMatches, DEFAULT_MAX_MATCHES, Number.MAX_SAFE_INTEGER);
  const found = yield* searchLines({ text, ...spans }, start, end, { ...request, grep: request.grep, maxMatches }, compiled);
  return { ...base, ...found };
}

/** Serves a request on the calling thread (the CLI). */
export function retrieve(store: OriginalStore, request: RetrieveRequest): RetrieveResult {
  return runSync(retrieval(store, request));
}

/** Serves a request, letting the event loop turn during a long grep (a host that must stay responsive). */
export function retrieveAsync(store: OriginalStore, request: RetrieveRequest): Promise<RetrieveResult> {
  return runAsync(retrieval(store, request));
}
