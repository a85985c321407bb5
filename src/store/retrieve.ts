// Retrieval of an original by exact id (seed 002 section 6): whole, a 0-based
// line range that clamps instead of failing, or the lines matching a pattern.
// A miss is a typed result whose message tells the reader what to do.
import { count } from '../processors/markers.js';
import { isOriginalId } from './id.js';
import type { OriginalStore } from './types.js';

export interface RetrieveRequest {
  readonly id: string;
  /** 0-based first line and how many lines; clamped to the text (past the end gives ''). */
  readonly range?: { readonly start?: number; readonly count?: number };
  /** JavaScript regular expression source, matched against each line of the text (or of the range). */
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
      /** Matching lines in the range, shown or not (grep only). */
      readonly matches?: number;
    }
  | {
      readonly ok: false;
      readonly id: string;
      readonly reason: 'unknown' | 'expired' | 'bad-pattern';
      readonly message: string;
    };

export const DEFAULT_MAX_MATCHES = 200;

/** Start offsets of every line; a final newline does not start a new line. */
function lineStarts(text: string): number[] {
  const starts = text.length > 0 ? [0] : [];
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
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

function matcher(request: RetrieveRequest): RegExp | string {
  const pattern = request.grep as string;
  if (request.literal) {
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), request.ignoreCase ? 'i' : '');
  }
  try {
    return new RegExp(pattern, request.ignoreCase ? 'i' : '');
  } catch (error) {
    return `Invalid grep pattern ${JSON.stringify(pattern)}: ${(error as Error).message}. Pass it as a literal string instead (literal: true, or --literal).`;
  }
}

/** Looks the id up (exactly) and serves the whole original, a line range or the matching lines. */
export function retrieve(store: OriginalStore, request: RetrieveRequest): RetrieveResult {
  const { id } = request;
  let pattern: RegExp | null = null;
  if (request.grep !== undefined) {
    const compiled = matcher(request);
    if (typeof compiled === 'string') return { ok: false, id, reason: 'bad-pattern', message: compiled };
    pattern = compiled;
  }
  const lookup = store.get(id);
  if (!lookup.found) return { ok: false, id, reason: lookup.reason, message: missMessage(id, lookup.reason) };
  const { text, type, size } = lookup.entry;
  const starts = lineStarts(text);
  const start = clampedInteger(request.range?.start, 0, starts.length);
  const end = start + clampedInteger(request.range?.count, starts.length - start, starts.length - start);
  const lines = { start, count: end - start };
  const base = { ok: true as const, id, type, size, totalLines: starts.length, lines };
  if (pattern === null) {
    const whole = start === 0 && end === starts.length;
    return { ...base, text: whole ? text : text.slice(starts[start] ?? text.length, starts[end] ?? text.length) };
  }
  const limit = clampedInteger(request.maxMatches, DEFAULT_MAX_MATCHES, Number.MAX_SAFE_INTEGER);
  const shown: string[] = [];
  let matches = 0;
  for (let i = start; i < end; i++) {
    const from = starts[i] as number;
    const to = i + 1 < starts.length ? (starts[i + 1] as number) - 1 : text.length;
    const line = text.slice(from, to).replace(/\r?\n?$/, '');
    if (!pattern.test(line)) continue;
    matches++;
    if (shown.length < limit) shown.push(`${i + 1}: ${line}`);
  }
  const hidden = matches - shown.length;
  if (hidden > 0) shown.push(`[… ${count(hidden)} more ${hidden === 1 ? 'match' : 'matches'} …]`);
  return { ...base, text: shown.join('\n'), matches };
}
