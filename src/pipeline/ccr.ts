// Seed 002's reduced 7-type classifier (section 3) and its one-line previews
// (section 4). Host-independent: the DSH gate, the CLI and the emergency level
// all use them, so a result is typed and previewed the same everywhere.
import { lineEndAt } from '../text/line-breaks.js';

export const CCR_TYPES = ['error', 'terminal', 'grep', 'paths', 'file', 'json', 'web', 'default'] as const;

export type CcrType = (typeof CCR_TYPES)[number];

/** Seed 002 section 3: tool names to types. */
const TOOL_TYPES: Record<string, CcrType> = {
  bash: 'terminal',
  grep: 'grep',
  search: 'grep',
  glob: 'paths',
  list: 'paths',
  read: 'file',
  web_fetch: 'web',
  web_search: 'web',
};

/** Past this many characters the brackets decide: parsing a huge document only to label it costs seconds. */
const PARSE_CHECK_CHARS = 2_000_000;

function looksLikeJson(text: string): boolean {
  const t = text.trim();
  if (!((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']')))) return false;
  if (t.length > PARSE_CHECK_CHARS) return true;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/** error for a failure; else the tool-name table; else the JSON shape fallback; else default. */
export function ccrType(toolName: string | undefined, isError: boolean, text: string): CcrType {
  if (isError) return 'error';
  const byName = toolName === undefined ? undefined : TOOL_TYPES[toolName];
  if (byName) return byName;
  return looksLikeJson(text) ? 'json' : 'default';
}

/** The first line that is not blank and not pure punctuation/box drawing. */
export function firstSignificantLine(text: string): string {
  for (let from = 0; from < text.length; ) {
    const { end, next } = lineEndAt(text, from);
    const line = text.slice(from, end).trim();
    if (/[\p{L}\p{N}]/u.test(line)) return line;
    from = next;
  }
  return '';
}

function firstLine(text: string): string {
  return text.slice(0, lineEndAt(text, 0).end).trim();
}

/** Lines of a text by the one line-break rule (LF, CRLF or a lone CR), a final break not starting an empty last line. */
export function lineCount(text: string): number {
  let n = 0;
  for (let from = 0; from < text.length; from = lineEndAt(text, from).next) n++;
  return n;
}

/** UTF-8 byte length (Buffer in Node, TextEncoder elsewhere). */
export function utf8Bytes(text: string): number {
  return typeof Buffer !== 'undefined' ? Buffer.byteLength(text, 'utf8') : new TextEncoder().encode(text).length;
}

function jsonShape(text: string): string {
  if (text.length > PARSE_CHECK_CHARS) return `${utf8Bytes(text)} bytes`;
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) return `${value.length} items`;
    if (value && typeof value === 'object') return `${Object.keys(value).length} keys`;
  } catch {
    // not JSON after all: fall through to the byte count
  }
  return `${utf8Bytes(text)} bytes`;
}

/** Cuts to `max` code points (never splitting a surrogate pair), marking the cut with '…'. */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text; // code points never outnumber units
  // Only the head is split into code points: a first line can be megabytes long.
  const window = 2 * max + 2;
  const head = Array.from(text.slice(0, window));
  if (text.length <= window && head.length <= max) return text;
  return `${head.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * Seed 002 section 4: the type-aware one-liner (without the brackets), cut to
 * `maxChars`. `exitCode` is shown for terminal results when the host knows it.
 */
export function preview(type: CcrType, text: string, maxChars: number, exitCode?: number): string {
  const lines = lineCount(text);
  let body: string;
  switch (type) {
    case 'terminal':
      body = `exit ${exitCode ?? '?'} | ${lines} lines | ${firstSignificantLine(text)}`;
      break;
    case 'grep':
      body = `${lines} matches | ${firstSignificantLine(text)}`;
      break;
    case 'paths':
      body = `${lines} paths | ${firstLine(text)}`;
      break;
    case 'file':
      body = `${lines} lines | ${firstSignificantLine(text)}`;
      break;
    case 'json':
      body = `${jsonShape(text)} | ${firstLine(text)}`;
      break;
    case 'web':
      body = `${lines} lines | ${firstLine(text)}`;
      break;
    case 'error':
      body = firstSignificantLine(text);
      break;
    default:
      body = `${utf8Bytes(text)} bytes | ${firstSignificantLine(text)}`;
  }
  return cutChars(body, maxChars);
}
