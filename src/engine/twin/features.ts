// TypeScript twin of assembly/features.ts: the same shape words, field counts
// and totals, bit for bit.
import { DELIMITERS, FEATURE, FIELD_UNITS } from '../contract.js';
import type { TextFeatures } from '../types.js';
import { isWhiteSpace as isSpace } from '../../text/strings.js';

const DELIMITER_UNITS = DELIMITERS.map((d) => d.charCodeAt(0));

const BOX_RULES = new Set([
  0x2500, 0x2501, 0x2550, 0x250c, 0x2510, 0x2514, 0x2518, 0x251c, 0x2524, 0x252c, 0x2534, 0x253c, 0x255e, 0x2561,
  0x256a, 0x2554, 0x2557, 0x255a, 0x255d, 0x2560, 0x2563, 0x2566, 0x2569, 0x256c,
]);

/** A table rule's character: `-=+|:`, whitespace, or a box-drawing line or corner. */
function isRule(c: number): boolean {
  return c === 45 || c === 61 || c === 43 || c === 124 || c === 58 || isSpace(c) || BOX_RULES.has(c);
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => (c | 32) >= 97 && (c | 32) <= 122;
const isDateSeparator = (c: number) => c === 45 || c === 47 || c === 58 || c === 46;

function digits(text: string, i: number, to: number): number {
  let n = 0;
  while (i + n < to && isDigit(text.charCodeAt(i + n))) n++;
  return n;
}

/** `[?\d{2,4}[-/:.]\d{1,2}[-/:.]\d{1,2}` at the line's start. */
function dated(text: string, from: number, to: number): boolean {
  let i = from;
  if (i < to && text.charCodeAt(i) === 91) i++;
  const year = digits(text, i, to);
  if (year < 2 || year > 4) return false;
  i += year;
  if (i >= to || !isDateSeparator(text.charCodeAt(i))) return false;
  i++;
  const month = digits(text, i, to);
  if (month < 1 || month > 2) return false;
  i += month;
  if (i >= to || !isDateSeparator(text.charCodeAt(i))) return false;
  return i + 1 < to && isDigit(text.charCodeAt(i + 1));
}

/** The line ends as code does (`{}();,:`, `=>`, `*\/` before trailing space) or opens a comment (`//`, `#`, `*`). */
function codeEnd(text: string, from: number, to: number, lead: number): boolean {
  let last = to;
  while (last > from && isSpace(text.charCodeAt(last - 1))) last--;
  if (last > from) {
    const c = text.charCodeAt(last - 1);
    if (c === 123 || c === 125 || c === 40 || c === 41 || c === 59 || c === 44 || c === 58) return true;
    if (last - 2 >= from) {
      const b = text.charCodeAt(last - 2);
      if ((b === 61 && c === 62) || (b === 42 && c === 47)) return true;
    }
  }
  if (lead < to) {
    const c = text.charCodeAt(lead);
    if (c === 35 || c === 42) return true;
    if (c === 47 && lead + 1 < to && (text.charCodeAt(lead + 1) === 47 || text.charCodeAt(lead + 1) === 42))
      return true;
  }
  return false;
}

/** Fields of text[from, to) split at `delimiter`, a double quote opening a field quoting it ("" inside is one). */
function fieldsBy(text: string, from: number, to: number, delimiter: number): number {
  let fields = 1;
  let length = 0;
  let quoted = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === 34 && i + 1 < to && text.charCodeAt(i + 1) === 34) {
        length++;
        i++;
      } else if (c === 34) quoted = false;
      else length++;
    } else if (c === 34 && length === 0) quoted = true;
    else if (c === delimiter) {
      fields++;
      length = 0;
    } else length++;
  }
  return fields;
}

function shapeOf(text: string, from: number, to: number): number {
  let lead = from;
  while (lead < to && isSpace(text.charCodeAt(lead))) lead++;
  if (lead === to) return from === to ? FEATURE.BLANK : FEATURE.BLANK | FEATURE.SEPARATOR;
  let shape = 0;
  let rule = true;
  for (let i = lead; i < to && rule; i++) rule = isRule(text.charCodeAt(i));
  if (rule) shape |= FEATURE.SEPARATOR;
  if (text.charCodeAt(lead) === 60 && lead + 1 < to) {
    const c = text.charCodeAt(lead + 1);
    if (isLetter(c) || c === 33 || c === 47) shape |= FEATURE.MARKUP;
  }
  if (dated(text, from, to)) shape |= FEATURE.DATED;
  if (codeEnd(text, from, to, lead)) shape |= FEATURE.CODE_END;
  if (to - from >= 2 && text.startsWith('@@', from)) shape |= FEATURE.AT_AT;
  if (to - from >= 5 && text.startsWith('diff ', from)) shape |= FEATURE.DIFF_WORD;
  return shape;
}

export function textFeatures(
  text: string,
  starts: Int32Array,
  ends: Int32Array,
  count: number,
  sample: number,
): TextFeatures {
  const shape = new Uint32Array(count);
  const fields = new Int32Array(count * DELIMITERS.length);
  for (let i = 0; i < count; i++) {
    const from = starts[i]!;
    const to = ends[i]!;
    shape[i] = shapeOf(text, from, to);
    // Without a double quote a line's fields are its delimiters plus one: one pass counts all five.
    const row = i * DELIMITERS.length;
    const fieldsTo = Math.min(to, from + FIELD_UNITS);
    let tabs = 1;
    let commas = 1;
    let semicolons = 1;
    let pipes = 1;
    let bars = 1;
    let quote = false;
    for (let j = from; j < fieldsTo && !quote; j++) {
      const c = text.charCodeAt(j);
      if (c === 9) tabs++;
      else if (c === 44) commas++;
      else if (c === 59) semicolons++;
      else if (c === 124) pipes++;
      else if (c === 0x2502) bars++;
      else quote = c === 34;
    }
    fields[row] = tabs;
    fields[row + 1] = commas;
    fields[row + 2] = semicolons;
    fields[row + 3] = pipes;
    fields[row + 4] = bars;
    if (quote)
      for (let d = 0; d < DELIMITERS.length; d++) fields[row + d] = fieldsBy(text, from, fieldsTo, DELIMITER_UNITS[d]!);
  }
  const scanned = Math.min(sample, text.length);
  let tagOpenings = 0;
  let sampleFeeds = 0;
  for (let i = 0; i < scanned; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) sampleFeeds++;
    else if (c === 60 && i + 1 < scanned) {
      let name = i + 1;
      if (text.charCodeAt(name) === 47) name++;
      if (name < scanned && isLetter(text.charCodeAt(name))) tagOpenings++;
    }
  }
  return { lines: count, shape, fields, tagOpenings, sampleFeeds };
}
