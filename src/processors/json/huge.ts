// Huge JSON, summarised by one streaming pass instead of parsed: past
// MAX_JSON_VALUES values the structural processor's passes (parse, importance,
// up to six fits, two renderings) cost seconds and gigabytes (1e6 keys took
// 21 s and 1.3 GB). The summary keeps the top-level container's first and
// last entries as they are written, counts the rest exactly, and leaves the
// whole document to retrieval.
import { JsonInputError } from '../errors.js';
import { count, jsonItems } from '../markers.js';
import { stringEnd } from './parse.js';

/** Values (keys and array items, at any depth) past which a document is summarised, not parsed. */
export const MAX_JSON_VALUES = 100_000;
/** Characters of one entry shown at most; the rest is counted. */
const ENTRY_CHARS = 400;
/** Share of the character budget given to the first entries (the rest to the last). */
const HEAD_SHARE = 0.7;

/** Values in the text, counted as separators and openings outside strings; stops past `limit`. */
export function countValues(text: string, limit: number): number {
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i);
    else if (c === 44 || c === 58 || c === 91 || c === 123) {
      if (++values > limit) return values;
    }
  }
  return values;
}

interface Span {
  readonly from: number;
  readonly to: number;
}

/**
 * The top-level container's entries (spans of their text, whitespace
 * trimmed); throws when anything but whitespace follows the container (JSON
 * lines, a truncated or concatenated document: not this summary's shape).
 */
function* entries(text: string, open: number): Generator<Span> {
  let depth = 0;
  let from = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i);
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (--depth === 0) {
        if (text.slice(i + 1).trim() !== '') throw new JsonInputError('text follows the top-level JSON value');
        if (text.slice(from, i).trim() !== '') yield trimmed(text, from, i);
        return;
      }
    } else if (c === 44 && depth === 1) {
      yield trimmed(text, from, i);
      from = i + 1;
    }
  }
  throw new JsonInputError('the document ends before its top-level container closes');
}

function trimmed(text: string, from: number, to: number): Span {
  while (from < to && /\s/.test(text[from]!)) from++;
  while (to > from && /\s/.test(text[to - 1]!)) to--;
  return { from, to };
}

function shown(text: string, span: Span): string {
  const length = span.to - span.from;
  if (length <= ENTRY_CHARS) return text.slice(span.from, span.to);
  return `${text.slice(span.from, span.from + ENTRY_CHARS)} [… ${count(length - ENTRY_CHARS)} more characters …]`;
}

/**
 * A summary of a huge JSON document within about `chars` characters: a
 * header with the exact entry count, the first entries and the last ones
 * verbatim (each cut at ENTRY_CHARS), the gap marked with its count.
 */
export function summariseHugeJson(text: string, chars: number): { text: string; omitted: Record<string, number> } {
  const open = text.search(/\S/);
  const bracket = text[open];
  if (bracket !== '{' && bracket !== '[') throw new JsonInputError('not a JSON object or array');
  const unit = bracket === '{' ? 'key' : 'item';
  const head: string[] = [];
  let headChars = 0;
  let headFull = false;
  const tail: string[] = [];
  let tailChars = 0;
  let total = 0;
  for (const span of entries(text, open)) {
    total++;
    const entry = shown(text, span);
    if (!headFull && headChars + entry.length <= chars * HEAD_SHARE) {
      head.push(entry);
      headChars += entry.length + 1;
      continue;
    }
    headFull = true;
    tail.push(entry);
    tailChars += entry.length + 1;
    while (tail.length > 1 && tailChars > chars * (1 - HEAD_SHARE)) tailChars -= tail.shift()!.length + 1;
  }
  const omitted = total - head.length - tail.length;
  const close = bracket === '{' ? '}' : ']';
  const kind = bracket === '{' ? 'object' : 'array';
  const lines = [
    `[json ${kind} with ${count(total)} ${unit}s, ${count(text.length)} characters: over ${count(MAX_JSON_VALUES)} values, ` +
      `summarised without parsing; the first ${count(head.length)} and last ${count(tail.length)} ${unit}s as written]`,
    bracket,
    ...head.map((e) => `${e},`),
    ...(omitted > 0 ? [jsonItems('$', head.length, total - tail.length, unit)] : []),
    ...tail.map((e, i) => (i < tail.length - 1 ? `${e},` : e)),
    close,
  ];
  return { text: lines.join('\n'), omitted: omitted > 0 ? { [`${unit}s`]: omitted } : {} };
}
