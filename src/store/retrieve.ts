// Retrieval of an original by exact id (docs/GLOSSARY.md, Store): whole, a line
// range (1-based, like omission markers, `--grep`'s numbers and DSH's `read`
// offset), or the lines matching a pattern; a host with an inline cap asks for
// a page of at most so many bytes and is told where the next page starts. A
// miss is a typed result whose message tells the reader what to do. Lines end
// as the kernels' line table says (LF, CRLF or a lone CR), so line numbers
// here are the ones omission markers name.
import { lineEndAt } from '../text/line-breaks.js';
import { ID_SHAPE, idFrom } from './id.js';
import { compileSearch, DEFAULT_MAX_MATCHES, PatternError, runAsync, runSync, searchLines } from './search.js';
import type { OriginalStore } from './types.js';

export interface RetrieveRequest {
  readonly id: string;
  /**
   * First line (1-based, default 1) and how many lines (default: to the end).
   * A start past the end gives ''; a start below 1 or a negative count is a
   * `bad-range` miss, never silently moved.
   */
  readonly range?: { readonly start?: number | undefined; readonly count?: number | undefined };
  /**
   * At most this many UTF-8 bytes of lines (no grep): whole lines from the
   * start while they fit (at least the first, cut if alone it does not), and
   * `next` names the rest. Absent: the range whole, byte for byte.
   */
  readonly maxBytes?: number;
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
      /** The whole original's exact bytes, when they are not UTF-8 (`text` shows them as U+FFFD). */
      readonly bytes?: Uint8Array;
      /** Lines of the whole original. */
      readonly totalLines: number;
      /** The lines served (1-based start; a page may serve fewer than asked). */
      readonly lines: { readonly start: number; readonly count: number };
      /** A page stopped short of the range: the range that asks for the rest. */
      readonly next?: { readonly start: number; readonly count: number };
      /** A page's one line did not fit: its bytes shown (a prefix, whole characters) of its bytes in all. */
      readonly cutLine?: { readonly shownBytes: number; readonly bytes: number };
      /** Matching lines in the range, shown or not (grep only; in the searched part when it stopped early). */
      readonly matches?: number;
      /** The grep stopped at its deadline: the first line (1-based) it did not search whole. */
      readonly stoppedAt?: number;
      /** The grep stopped at its deadline: characters of the range's text searched, of how many. */
      readonly searched?: { readonly chars: number; readonly of: number };
    }
  | {
      readonly ok: false;
      readonly id: string;
      readonly reason: 'unknown' | 'expired' | 'bad-pattern' | 'bad-range' | 'bad-id';
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
  for (let from = 0; from < text.length; ) {
    const line = lineEndAt(text, from);
    start.push(from);
    end.push(line.end);
    from = line.next;
    if ((start.length & 0xffff) === 0) yield;
  }
  return { start, end };
}

function clampedInteger(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return Math.min(max, Math.max(0, Math.floor(value)));
}

/** Why a range cannot be served as asked, or undefined when it can. */
function badRange(range: RetrieveRequest['range']): string | undefined {
  const { start, count } = range ?? {};
  if (start !== undefined && !(Number.isSafeInteger(start) && start >= 1)) {
    return `range start ${JSON.stringify(start)} is not a line number: lines are numbered from 1 (the first line is start 1)`;
  }
  if (count !== undefined && !(Number.isSafeInteger(count) && count >= 0)) {
    return `range count ${JSON.stringify(count)} is not a number of lines (a whole number >= 0; leave it out for "to the end")`;
  }
  return undefined;
}

/** The longest prefix of `line` of at most `maxBytes` UTF-8 bytes, in whole characters. */
function prefixWithin(line: string, maxBytes: number): string {
  let low = 0;
  let high = Math.min(line.length, maxBytes);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(line.slice(0, mid), 'utf8') <= maxBytes) low = mid;
    else high = mid - 1;
  }
  // never end on the first half of a surrogate pair
  return /[\ud800-\udbff]$/.test(line.slice(0, low)) ? line.slice(0, low - 1) : line.slice(0, low);
}

function missMessage(id: string, reason: 'unknown' | 'expired'): string {
  const rerun = 'Re-run the original tool to get its output again.';
  if (reason === 'expired') {
    return `The original ${id} has expired (its time to live in the squeeze store passed) and is no longer kept. ${rerun}`;
  }
  return `No original is stored under ${id}: it was never stored in this store or it was evicted. ${rerun}`;
}

/** Looks the id up (exactly) and serves the whole original, a line range or the matching lines. */
function* retrieval(store: OriginalStore, request: RetrieveRequest): Generator<void, RetrieveResult> {
  // Any case, or pasted inside its marker or notice line: the id it names.
  const id = idFrom(request.id);
  if (id === undefined) {
    return {
      ok: false,
      id: request.id,
      reason: 'bad-id',
      message: `${JSON.stringify(request.id.slice(0, 80))} names no id: ${ID_SHAPE}`,
    };
  }
  const rangeProblem = badRange(request.range);
  if (rangeProblem !== undefined) return { ok: false, id, reason: 'bad-range', message: rangeProblem };
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
  // 0-based line indexes [start, end) from here on; the result speaks 1-based.
  const start = Math.min(total, (request.range?.start ?? 1) - 1);
  const end = start + Math.min(total - start, request.range?.count ?? total - start);
  const base = { ok: true as const, id, type, size, totalLines: total };
  if (compiled === undefined || request.grep === undefined) {
    if (request.maxBytes !== undefined) return page(text, spans, start, end, request.maxBytes, base);
    const whole = start === 0 && end === total;
    const range = text.slice(spans.start[start] ?? text.length, spans.start[end] ?? text.length);
    const exact = whole && lookup.entry.bytes ? { bytes: lookup.entry.bytes } : {};
    return { ...base, lines: { start: start + 1, count: end - start }, text: whole ? text : range, ...exact };
  }
  const maxMatches = clampedInteger(request.maxMatches, DEFAULT_MAX_MATCHES, Number.MAX_SAFE_INTEGER);
  const found = yield* searchLines(
    { text, ...spans },
    start,
    end,
    { ...request, grep: request.grep, maxMatches },
    compiled,
  );
  const { stoppedAt, ...rest } = found;
  return {
    ...base,
    lines: { start: start + 1, count: end - start },
    ...rest,
    ...(stoppedAt === undefined ? {} : { stoppedAt: stoppedAt + 1 }),
  };
}

/**
 * Lines [start, end) as one page of at most `maxBytes` UTF-8 bytes: whole
 * lines while they fit, at least one (a prefix of it when alone it is over),
 * and the range of the rest.
 */
function page(
  text: string,
  spans: { start: number[]; end: number[] },
  start: number,
  end: number,
  maxBytes: number,
  base: { ok: true; id: string; type: string; size: number; totalLines: number },
): RetrieveResult {
  const from = spans.start[start] ?? text.length;
  const offsetOf = (line: number) => spans.start[line] ?? text.length;
  // Whole lines while their UTF-8 bytes fit: counted line by line, never past the cap.
  let stop = start;
  let bytes = 0;
  while (stop < end) {
    const lineBytes = Buffer.byteLength(text.slice(offsetOf(stop), offsetOf(stop + 1)), 'utf8');
    if (bytes + lineBytes > maxBytes) break;
    bytes += lineBytes;
    stop++;
  }
  const rest = (after: number) => (after < end ? { next: { start: after + 1, count: end - after } } : {});
  if (stop > start || start === end) {
    return {
      ...base,
      lines: { start: start + 1, count: stop - start },
      text: text.slice(from, offsetOf(stop)),
      ...rest(stop),
    };
  }
  // One line over the whole page: its head, in whole characters; the page names how much is missing.
  const line = text.slice(from, offsetOf(start + 1));
  const shown = prefixWithin(line, maxBytes);
  return {
    ...base,
    lines: { start: start + 1, count: 1 },
    text: shown,
    cutLine: { shownBytes: Buffer.byteLength(shown, 'utf8'), bytes: Buffer.byteLength(line, 'utf8') },
    ...rest(start + 1),
  };
}

/** Serves a request on the calling thread (the CLI). */
export function retrieve(store: OriginalStore, request: RetrieveRequest): RetrieveResult {
  return runSync(retrieval(store, request));
}

/** Serves a request, letting the event loop turn during a long grep (a host that must stay responsive). */
export function retrieveAsync(store: OriginalStore, request: RetrieveRequest): Promise<RetrieveResult> {
  return runAsync(retrieval(store, request));
}
