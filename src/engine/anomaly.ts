// Which lines of a text are unusual, from the analysis record: the
// classifier's outcome bit (a failure in any tool's words), a shape seen once
// or twice where shapes repeat, and a number far outside what the same-shape
// lines hold at the same position. Rules for known tools add to what a
// processor keeps; this is what it keeps without one.
import { type CellNumber, MIN_ROWS, numberAt, outlierNumbers } from './fields.js';
import { hasAsciiDigit, isAsciiDigit } from '../text/strings.js';
import { LineFlag } from './flags.js';
import type { TextAnalysis } from './analysis.js';
import type { FieldSpans, LineGroups, LineTable } from './types.js';

/** Why a line is unusual (bits of LineAnomalies.reasons). */
export const Anomaly = {
  /** The classifier's Outcome bit: `= -1 ENOENT`, killed, oom, a non-zero exit. */
  Outcome: 1,
  /** A shape (template) seen once or twice in a text where shapes repeat. */
  RareShape: 2,
  /** A number far outside its column of same-shape lines (median absolute deviation), a lone negative or non-zero. */
  Outlier: 4,
} as const;

export interface LineAnomalies {
  /** Per line: Anomaly bits, 0 for an ordinary line. */
  readonly reasons: Uint8Array;
  /** Per line: how unusual, 0 for an ordinary line (outcome 4, outlier 3, a shape seen once 2, twice 1; summed). */
  readonly score: Uint8Array;
  /**
   * Per line: its shape for sampling, the template group, except that failure
   * outcomes are grouped with their quoted strings masked too (see outcomeShapes).
   */
  readonly shape: Int32Array;
  /** The unusual lines, highest score first, then those of the rarer shape, then in text order. */
  readonly ranked: Int32Array;
}

/**
 * Shapes repeat in this text: at least 50 lines and at most 3 shapes per 10
 * lines. Where most lines have shapes of their own (prose, test names), a
 * shape seen once means nothing.
 */
export function shapesRepeat(lines: number, shapes: number): boolean {
  return lines >= 50 && shapes <= lines * SHAPES_PER_LINE;
}

/** Most shapes per line of a text whose shapes repeat (see shapesRepeat). */
const SHAPES_PER_LINE = 0.3;

/** Most lines of one shape a number may stand out in: a value two lines have among hundreds. */
const RARE_LINES = 2;
/** Lines longer than this are not split into fields (their cost would be the text's). */
const MAX_FIELD_LINE = 2000;
/** Positions looked at in a line: columns past it are rarely numbers a reader compares. */
const MAX_FIELDS = 32;
const isKeyStart = (c: number): boolean => ((c | 32) >= 97 && (c | 32) <= 122) || c === 95;
const isKeyUnit = (c: number): boolean => isKeyStart(c) || isAsciiDigit(c) || c === 46 || c === 45;
/** `"'([{` and `"',;)]}`: what wraps a value (`("12.5",`). */
const isOpening = (c: number): boolean => c === 34 || c === 39 || c === 40 || c === 91 || c === 123;
const isClosing = (c: number): boolean =>
  c === 34 || c === 39 || c === 44 || c === 59 || c === 41 || c === 93 || c === 125;

/** The number a field text[start, end) holds as its value, a key before it and wrapping around it left out: `amount=12.5,` -> 12.5. */
export function fieldNumber(text: string, start: number, end: number): CellNumber | null {
  // A key: a letter or `_`, then letters, digits, `_`, `.` or `-`, then `=` or `:`.
  if (isKeyStart(text.charCodeAt(start))) {
    let k = start + 1;
    while (k < end && isKeyUnit(text.charCodeAt(k))) k++;
    const c = text.charCodeAt(k);
    if (k < end && (c === 61 || c === 58)) start = k + 1;
  }
  while (start < end && isOpening(text.charCodeAt(start))) start++;
  while (end > start && isClosing(text.charCodeAt(end - 1))) end--;
  return numberAt(text, start, end);
}

/**
 * Position p of these lines parsed as numbers (undefined where a line has no
 * such field), or null when it cannot be a numeric column (outlierNumbers
 * needs nine in ten filled cells numbers): null as soon as more than a tenth
 * fail to parse, so a column of words costs a tenth of its cells, not all of them.
 */
function numericPosition(
  text: string,
  fields: FieldSpans,
  rows: number,
  p: number,
): (CellNumber | null | undefined)[] | null {
  const { spans, first } = fields;
  let filled = 0;
  for (let r = 0; r < rows; r++) if (first[r]! + p < first[r + 1]!) filled++;
  let failed = 0;
  const parsed = new Array<CellNumber | null | undefined>(rows);
  for (let r = 0; r < rows; r++) {
    const field = first[r]! + p;
    const n = field < first[r + 1]! ? fieldNumber(text, spans[2 * field]!, spans[2 * field + 1]!) : undefined;
    parsed[r] = n;
    if (n === null && filled - ++failed < 0.9 * filled) return null;
  }
  return parsed;
}

/** Lines holding a numeric outlier among the lines of their shape, by position (groups of MIN_ROWS or more lines). */
function outlierLines(analysis: TextAnalysis, found: Uint8Array): void {
  const { text, lines, templates } = analysis;
  const flags = analysis.classes.flags;
  const members = new Map<number, number[]>();
  for (let i = 0; i < lines.count; i++) {
    if (templates.size[i]! < 2 * MIN_ROWS || lines.end[i]! - lines.start[i]! > MAX_FIELD_LINE) continue;
    // A line without a digit has no number to stand out (templates mask only fields with digits;
    // and blank runs are most of some texts).
    if (flags[i]! & LineFlag.Blank || !hasAsciiDigit(text, lines.start[i]!, lines.end[i]!)) continue;
    const group = templates.group[i]!;
    let list = members.get(group);
    if (!list) members.set(group, (list = []));
    list.push(i);
  }
  for (const list of members.values()) {
    if (list.length < 2 * MIN_ROWS) continue;
    const fields = analysis.fieldSpans(list, MAX_FIELDS);
    for (let p = 0; p < fields.width; p++) {
      // A word without a digit is the shape's fixed text (templates mask only fields with digits): no number there.
      const lead = fields.first[0]! + p;
      if (lead < fields.first[1]! && !hasAsciiDigit(text, fields.spans[2 * lead]!, fields.spans[2 * lead + 1]!))
        continue;
      const parsed = numericPosition(text, fields, list.length, p);
      if (parsed !== null) for (const r of outlierNumbers(parsed, RARE_LINES)) found[list[r]!] = 1;
    }
  }
}

const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
const DIGITS = /\d+/g;

/**
 * Template groups, except that failure outcomes are grouped with their quoted
 * strings masked too: a trace's hundred `getxattr("…") = -1 ENODATA` probes,
 * each naming another file, are one shape to sample, and the one
 * `openat("/etc/app.conf") = -1 ENOENT` is not crowded out by them. Only
 * outcome lines are read; their shape ids start at the line count.
 */
function outcomeShapes(text: string, lines: LineTable, templates: LineGroups, flags: Int32Array): Int32Array {
  const shape = Int32Array.from(templates.group);
  const ids = new Map<string, number>();
  for (let i = 0; i < lines.count; i++) {
    if (!(flags[i]! & LineFlag.Outcome)) continue;
    const key = text.slice(lines.start[i]!, lines.end[i]!).replace(QUOTED, '""').replace(DIGITS, '#');
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = lines.count + ids.size));
    shape[i] = id;
  }
  return shape;
}

export function lineAnomalies(analysis: TextAnalysis): LineAnomalies {
  const { text, lines, templates } = analysis;
  const flags = analysis.classes.flags;
  const n = lines.count;
  const reasons = new Uint8Array(n);
  const score = new Uint8Array(n);
  let size: ArrayLike<number> = templates.size;
  let rare = shapesRepeat(n, templates.distinct);
  if (!rare && n >= 50) {
    // Only where the ids were what set the lines apart (dmesg: 778 templates, 29 shapes): code or prose
    // a little short of repeating (git blame: 49 templates, 39 shapes) still has no rare shapes.
    // With generated names and ids masked (`vethqgtfn62`): nearly every line its own template, one shape again.
    const masked = analysis.idMaskedShapes;
    rare = masked.distinct <= templates.distinct / 2 && shapesRepeat(n, masked.distinct);
    if (rare) size = masked.size;
  }
  const outliers = new Uint8Array(n);
  outlierLines(analysis, outliers);
  const unusual: number[] = [];
  for (let i = 0; i < n; i++) {
    const f = flags[i]!;
    let why = 0;
    let points = 0;
    if (f & LineFlag.Outcome) {
      why |= Anomaly.Outcome;
      points += 4;
    }
    if (outliers[i]) {
      why |= Anomaly.Outlier;
      points += 3;
    }
    if (rare && size[i]! <= 2 && !(f & LineFlag.Blank)) {
      why |= Anomaly.RareShape;
      points += size[i] === 1 ? 2 : 1;
    }
    reasons[i] = why;
    score[i] = points;
    if (points > 0) unusual.push(i);
  }
  const shape = outcomeShapes(text, lines, templates, flags);
  const members = new Map<number, number>();
  for (const i of unusual) members.set(shape[i]!, (members.get(shape[i]!) ?? 0) + 1);
  unusual.sort((a, b) => score[b]! - score[a]! || members.get(shape[a]!)! - members.get(shape[b]!)! || a - b);
  return { reasons, score, shape, ranked: Int32Array.from(unusual) };
}
