// Defensive JSON reading: nesting depth is measured before parsing (so a
// 100,000-deep document is refused before anything recursive touches it), and
// JSON lines (cargo --message-format=json, go test -json) become an array.
import { JsonInputError } from '../errors.js';
import type { JsonValue } from './render.js';

/** Deepest nesting the processor walks; deeper documents go the text way. */
export const MAX_JSON_DEPTH = 200;

export interface ParsedJson {
  value: JsonValue;
  /** True when the text was one JSON value per line. */
  lines: boolean;
}

/**
 * The index of the quote that closes the JSON string opened at `quote` (a
 * backslash escapes the next unit), or the text's length when it never closes:
 * the one way the linear scans below step over strings.
 */
export function stringEnd(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i;
  }
  return text.length;
}

/** Maximum bracket nesting outside strings, by a linear scan. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i);
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * Marks a number whose digits a double cannot hold (ids beyond 2^53, long
 * decimals): it is parsed as a string with this prefix and rendered raw.
 */
const RAW_NUMBER = '\u0000#';

/** The digits of an over-precise number the parser kept as a RAW_NUMBER string, or null for any other string. */
export function rawNumber(s: string): string | null {
  return s.startsWith(RAW_NUMBER) ? s.slice(RAW_NUMBER.length) : null;
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

/** The text with over-precise numbers (more than 15 significant digits) quoted as RAW_NUMBER strings. */
function protectLongNumbers(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i);
    else if (c === 45 || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)?.[0];
      if (!token) continue;
      const digits = token
        .replace(/[eE].*$/, '')
        .replace(/\D/g, '')
        .replace(/^0+/, '');
      if (digits.length > 15) {
        out += `${text.slice(last, i)}"\\u0000#${token}"`;
        last = i + token.length;
      }
      i += token.length - 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

export function parseJson(text: string): ParsedJson {
  const trimmed = protectLongNumbers(text.trim());
  if (trimmed === '') throw new JsonInputError('empty input');
  const depth = nestingDepth(trimmed);
  if (depth > MAX_JSON_DEPTH) {
    throw new JsonInputError(`nesting depth ${depth} exceeds ${MAX_JSON_DEPTH}`);
  }
  try {
    return { value: JSON.parse(trimmed) as JsonValue, lines: false };
  } catch (error) {
    const records = parseJsonLines(trimmed);
    if (records) return { value: records, lines: true };
    throw new JsonInputError('not valid JSON', { cause: error });
  }
}

/** One JSON object or array per non-empty line (at least two), else null. */
function parseJsonLines(text: string): JsonValue[] | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length < 2) return null;
  const records: JsonValue[] = [];
  for (const line of lines) {
    const first = line.trimStart()[0];
    if (first !== '{' && first !== '[') return null;
    try {
      records.push(JSON.parse(line) as JsonValue);
    } catch {
      return null;
    }
  }
  return records;
}
