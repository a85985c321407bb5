// The CCR types of results and their one-line previews (docs/GLOSSARY.md, CCR
// type and Preview). Host-independent: the DSH gate, the CLI and the emergency level
// all use them, so a result is typed and previewed the same everywhere.
import { cutChars, lineCount, utf8Bytes } from '../text/strings.js';
import { lineEndAt } from '../text/line-breaks.js';

import { processors } from '../processors/index.js';
import type { CcrType } from '../types.js';

export { CCR_TYPES, type CcrType } from '../types.js';

/** Tool names to CCR types: the processors' claims, and the host tools no processor claims. */
const TOOL_TYPES: Readonly<Record<string, CcrType>> = {
  bash: 'terminal',
  web_fetch: 'web',
  web_search: 'web',
  ...Object.assign({}, ...Object.values(processors).map((processor) => processor.tools ?? {})),
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
function firstSignificantLine(text: string): string {
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

/**
 * The type-aware one-liner (without the brackets), cut to
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
