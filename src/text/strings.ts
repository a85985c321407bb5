// Leaf text helpers: counting and cutting text, formatting counts. Any layer
// may import this module, and it imports nothing from src/ outside src/text/, so a helper here
// never draws an arrow back up (test/system/layers.test.ts).

import { lineEndAt } from './line-breaks.js';

/** Made on first use: building one loads ICU's number data (tens of milliseconds at start), which most calls never need. */
let number: Intl.NumberFormat | undefined;

/**
 * Formats a count with thousands separators: 1204 -> "1,204". Integers are
 * grouped by hand (what Intl prints for them, at a fraction of its cost: a
 * big output names tens of thousands of counts); anything else goes to Intl.
 */
export function count(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return (number ??= new Intl.NumberFormat('en-US')).format(n);
  const digits = String(Math.abs(n));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${grouped}` : grouped;
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

/** Cuts to `max` code points (never splitting a surrogate pair), marking the cut with '…'. */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text; // code points never outnumber units
  // Only the head is split into code points: a first line can be megabytes long.
  const window = 2 * max + 2;
  const head = Array.from(text.slice(0, window));
  if (text.length <= window && head.length <= max) return text;
  return `${head.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** The text ending with a line break, so whatever follows (a notice, a terminal prompt) starts a line. */
export function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** An ASCII digit's unit, 0-9. */
export const isAsciiDigit = (c: number): boolean => c >= 48 && c <= 57;

/** text[start, end) holds an ASCII digit. */
export function hasAsciiDigit(text: string, start = 0, end = text.length): boolean {
  for (let k = start; k < end; k++) if (isAsciiDigit(text.charCodeAt(k))) return true;
  return false;
}

/** A unit JavaScript's `\s` matches (what `trim` removes and `split(/\s+/)` splits at). */
export function isWhiteSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
