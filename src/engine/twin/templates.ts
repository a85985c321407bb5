// TypeScript twin of assembly/templates.ts: line templates. A line's template
// is the line with every volatile field (numbers, hex ids, UUIDs, dates, IPs,
// host:port, the numeric parts of ids like blk_-160… or R02-M1) replaced by
// one placeholder unit U+FFFF; its fingerprint is the line fingerprint of
// hash.ts over those units. The rule, applied left to right on a line:
//
// 1. An alnum run is a maximal run of ASCII [0-9A-Za-z].
// 2. A run is masked whole when it contains a digit and is all hex
//    (3f2a, 9f4ef63, a git sha) or is 0x/0X followed by hex (0x1f3a); when it
//    is the first group of a UUID (8-4-4-4-12 hex, at least one digit, not
//    followed by an alnum) the whole UUID is masked; when it is a month or day
//    name (Jan..Dec, Mon..Sun) followed by one or two spaces and a digit, or by
//    one or two spaces, another such name, one or two spaces and a digit.
//    Any other run masks only its digit runs (J12 -> J<*>, 5ms -> <*>ms).
// 3. Masked spans join into one field when all between them is glue
//    (. : - _ , / +) and letter runs of at most two letters: dates, times,
//    ISO 8601, IPv4/IPv6, host:port, versions, ids like R02-M1-NC-C:J12-U11.
// 4. A field that starts with a digit takes a '-' or '+' right before it as
//    its sign when the unit before that is not alnum (blk_-160…, =-1).
// 5. In the template, a run of spaces right before or after a field counts
//    as one space (column padding: "Jun  1" and "Jun 14" share a template).
// 6. ANSI escape sequences (ESC [ parameters final-letter) are formatting,
//    never fields: they stay verbatim and end any alnum run.
// 7. In a line with an ASCII digit, a progress bar's inside is one field: at
//    least 3 bar units (space # * - . < = > ~, box drawing and block elements
//    U+2500-U+259F, braille U+2800-U+28FF) between `[` and `]`, between `⸨`
//    and `⸩`, or between two `|` when one of them is a box, block or braille
//    unit (`[=====>    ] 45%`, `|████▌     | 45/100`, `⸨####⠂⠂⠂⸩`): the bar
//    moves from line to line, the shape stays. The brackets stay verbatim.
//
// Every masked span contains a digit, sits next to one (rule 2) or is a bar
// in a line with one (rule 7), so a line without ASCII digits is its own
// template.
import { checkFieldCount, checkLineRanges } from '../contract.js';
import type { FieldSpans, Fingerprints } from '../types.js';
import { fmix, mixA, mixB, SEED_A, SEED_B } from './lines.js';

/** The unit that stands for one volatile field in a template. */
export const PLACEHOLDER = 0xffff;

const DATE_WORDS = new Set(
  [
    'Jan',
    'Feb',
    'Mar',
    'Apr',
    'May',
    'Jun',
    'Jul',
    'Aug',
    'Sep',
    'Oct',
    'Nov',
    'Dec',
    'Mon',
    'Tue',
    'Wed',
    'Thu',
    'Fri',
    'Sat',
    'Sun',
  ].map((w) => (w.charCodeAt(0) << 16) | (w.charCodeAt(1) << 8) | w.charCodeAt(2)),
);

function isDigit(c: number): boolean {
  return (c - 48) >>> 0 < 10;
}

function isLetter(c: number): boolean {
  return ((c | 32) - 97) >>> 0 < 26;
}

function isAlnum(c: number): boolean {
  return isDigit(c) || isLetter(c);
}

/** Digit or a-f / A-F. */
function isHex(c: number): boolean {
  return isDigit(c) || ((c | 32) - 97) >>> 0 < 6;
}

/** A unit a progress bar is drawn with (rule 7). */
function isBarUnit(c: number): boolean {
  return (
    c === 32 ||
    c === 35 ||
    c === 42 ||
    c === 45 ||
    c === 46 ||
    c === 60 ||
    c === 61 ||
    c === 62 ||
    c === 126 ||
    (c - 0x2500) >>> 0 < 0xa0 ||
    (c - 0x2800) >>> 0 < 0x100
  );
}

/** The unit closing a bar opened by `c` (`[`, `⸨`, `|`), or -1. */
function barCloser(c: number): number {
  return c === 91 ? 93 : c === 0x2e28 ? 0x2e29 : c === 124 ? 124 : -1;
}

/** Fewest units inside a progress bar's brackets. */
const BAR_MIN = 3;

function isGlue(c: number): boolean {
  // . : - _ , / +
  return c === 46 || c === 58 || c === 45 || c === 95 || c === 44 || c === 47 || c === 43;
}

/** Finds volatile fields of text[from, to) into `starts`/`ends`; one instance is reused across lines. */
class FieldScanner {
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  count = 0;
  private text = '';
  private from = 0;
  private to = 0;
  /** Whether the line has an ASCII digit: -1 until a bar asks (rule 7). */
  private digit = -1;

  /**
   * The fields of text[from, to); with `enough`, the scan stops once a field
   * past the first `enough` opens, those being then final (a span only ever
   * joins the last field): the count returned is then more than `enough`.
   */
  scan(text: string, from: number, to: number, enough = Number.POSITIVE_INFINITY): number {
    const most = ((to - from + 1) >>> 1) + 1;
    if (this.starts.length < most) {
      this.starts = new Int32Array(most);
      this.ends = new Int32Array(most);
    }
    this.text = text;
    this.from = from;
    this.to = to;
    this.count = 0;
    this.digit = -1;
    let p = from;
    while (p < to && this.count <= enough) {
      const first = text.charCodeAt(p);
      if (first === 27 && p + 1 < to && text.charCodeAt(p + 1) === 91) {
        p = this.pastEscape(p + 2);
        continue;
      }
      if (!isAlnum(first)) {
        const close = this.barEnd(p, first);
        if (close >= 0) {
          this.span(p + 1, close);
          p = close + 1;
          continue;
        }
        p++;
        continue;
      }
      let q = p;
      let digits = 0;
      let nonHex = 0;
      for (; q < to; q++) {
        const c = text.charCodeAt(q);
        if (isDigit(c)) digits++;
        else if (!isLetter(c)) break;
        else if (!isHex(c)) nonHex++;
      }
      const len = q - p;
      if (len === 8 && nonHex === 0 && this.uuidAt(p, digits)) {
        this.span(p, p + 36);
        p += 36;
        continue;
      }
      if (digits > 0) {
        if (
          nonHex === 0 ||
          (nonHex === 1 && len >= 3 && text.charCodeAt(p) === 48 && (text.charCodeAt(p + 1) | 32) === 120)
        ) {
          this.span(p, q);
        } else {
          this.digitRuns(p, q);
        }
      } else if (len === 3 && this.dateWordAt(p) && this.dateFollows(q)) {
        this.span(p, q);
      }
      p = q;
    }
    return this.count;
  }

  /** Where the progress bar opened by `opener` at p closes (rule 7), or -1. */
  private barEnd(p: number, opener: number): number {
    const closer = barCloser(opener);
    if (closer < 0) return -1;
    const text = this.text;
    let q = p + 1;
    let drawn = false;
    for (; q < this.to; q++) {
      const c = text.charCodeAt(q);
      if (c === closer || !isBarUnit(c)) break;
      if (c >= 0x2500) drawn = true;
    }
    if (q >= this.to || text.charCodeAt(q) !== closer || q - p - 1 < BAR_MIN) return -1;
    if (opener === 124 && !drawn) return -1;
    if (this.digit < 0) {
      this.digit = 0;
      for (let i = this.from; i < this.to; i++) if (isDigit(text.charCodeAt(i))) this.digit = 1;
    }
    return this.digit === 1 ? q : -1;
  }

  /** Past the parameters and final unit of an escape sequence whose parameters start at q. */
  private pastEscape(q: number): number {
    const text = this.text;
    while (q < this.to && (text.charCodeAt(q) - 0x20) >>> 0 < 0x20) q++;
    if (q < this.to && (text.charCodeAt(q) - 0x40) >>> 0 < 0x3f) q++;
    return q;
  }

  /** Masks each digit run of the mixed run text[p, q). */
  private digitRuns(p: number, q: number): void {
    const text = this.text;
    while (p < q) {
      if (!isDigit(text.charCodeAt(p))) {
        p++;
        continue;
      }
      let r = p + 1;
      while (r < q && isDigit(text.charCodeAt(r))) r++;
      this.span(p, r);
      p = r;
    }
  }

  /** Joins [a, b) to the last field if the gap allows (rule 3), else opens a field (with its sign). */
  private span(a: number, b: number): void {
    const text = this.text;
    const n = this.count;
    if (n > 0 && this.joins(this.ends[n - 1]!, a)) {
      this.ends[n - 1] = b;
      return;
    }
    let start = a;
    if (a > this.from && isDigit(text.charCodeAt(a))) {
      const sign = text.charCodeAt(a - 1);
      if ((sign === 45 || sign === 43) && (a - 1 === this.from || !isAlnum(text.charCodeAt(a - 2)))) start = a - 1;
    }
    this.starts[n] = start;
    this.ends[n] = b;
    this.count = n + 1;
  }

  /** text[from, to) is glue and letter runs of at most two letters. */
  private joins(from: number, to: number): boolean {
    const text = this.text;
    let letters = 0;
    for (let p = from; p < to; p++) {
      const c = text.charCodeAt(p);
      if (isLetter(c)) {
        if (++letters > 2) return false;
      } else if (isGlue(c)) {
        letters = 0;
      } else {
        return false;
      }
    }
    return true;
  }

  /** An 8-4-4-4-12 hex UUID starts at p (its first group, `firstDigits` digits in it, is already checked). */
  private uuidAt(p: number, firstDigits: number): boolean {
    const text = this.text;
    const end = p + 36;
    if (end > this.to) return false;
    if (end < this.to && isAlnum(text.charCodeAt(end))) return false;
    let digits = firstDigits;
    for (let i = p + 8; i < end; i++) {
      const c = text.charCodeAt(i);
      if (i === p + 8 || i === p + 13 || i === p + 18 || i === p + 23) {
        if (c !== 45) return false;
      } else if (!isHex(c)) {
        return false;
      } else if (isDigit(c)) {
        digits++;
      }
    }
    return digits > 0;
  }

  /** A month or day name in the three units at p (bounds are the caller's). */
  private dateWordAt(p: number): boolean {
    const text = this.text;
    const c0 = text.charCodeAt(p);
    const c1 = text.charCodeAt(p + 1);
    const c2 = text.charCodeAt(p + 2);
    return isLetter(c0) && isLetter(c1) && isLetter(c2) && DATE_WORDS.has((c0 << 16) | (c1 << 8) | c2);
  }

  /** Past one or two spaces from p, or -1. */
  private afterSpaces(p: number): number {
    const text = this.text;
    if (p >= this.to || text.charCodeAt(p) !== 32) return -1;
    p++;
    if (p < this.to && text.charCodeAt(p) === 32) p++;
    return p < this.to ? p : -1;
  }

  private dateFollows(q: number): boolean {
    const text = this.text;
    const r = this.afterSpaces(q);
    if (r < 0) return false;
    if (isDigit(text.charCodeAt(r))) return true;
    if (r + 3 > this.to || (r + 3 < this.to && isAlnum(text.charCodeAt(r + 3)))) return false;
    if (!this.dateWordAt(r)) return false;
    const s = this.afterSpaces(r + 3);
    return s >= 0 && isDigit(text.charCodeAt(s));
  }
}

const scanner = new FieldScanner();
let masked = new Uint16Array(256);

/**
 * Writes the template of text[from, to) into `masked` (the scanner holds its
 * fields); returns its length in units.
 */
function maskLine(text: string, from: number, to: number, fields: number): number {
  let n = 0;
  let p = from;
  for (let f = 0; f < fields; f++) {
    const start = scanner.starts[f]!;
    let copyTo = start;
    while (copyTo > p && text.charCodeAt(copyTo - 1) === 32) copyTo--;
    if (start - copyTo < 2) copyTo = start;
    else copyTo++;
    for (; p < copyTo; p++) masked[n++] = text.charCodeAt(p);
    masked[n++] = PLACEHOLDER;
    p = scanner.ends[f]!;
    let spaces = p;
    while (spaces < to && text.charCodeAt(spaces) === 32) spaces++;
    if (spaces - p >= 2) p = spaces - 1;
  }
  for (; p < to; p++) masked[n++] = text.charCodeAt(p);
  return n;
}

/** Template fingerprints of lines [starts[i], ends[i]) of `text`. */
export function templateHashes(text: string, starts: Int32Array, ends: Int32Array, count: number): Fingerprints {
  const longest = checkLineRanges(text.length, starts, ends, count);
  if (masked.length < longest) masked = new Uint16Array(longest);
  const hashA = new Uint32Array(count);
  const hashB = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const from = starts[i]!;
    const to = ends[i]!;
    const n = maskLine(text, from, to, scanner.scan(text, from, to));
    hashUnits(masked, n, hashA, hashB, i);
  }
  return { hashA, hashB };
}

/** hash.ts's fingerprint of units[0, len) into outA[at], outB[at]. */
function hashUnits(units: Uint16Array, len: number, outA: Uint32Array, outB: Uint32Array, at: number): void {
  let a = (SEED_A ^ len) | 0;
  let b = (SEED_B ^ len) | 0;
  let i = 0;
  for (const last = len & ~1; i < last; i += 2) {
    const w = units[i]! | (units[i + 1]! << 16);
    a = mixA(a, w);
    b = mixB(b, w);
  }
  if (i < len) {
    a = mixA(a, units[i]!);
    b = mixB(b, units[i]!);
  }
  outA[at] = fmix(a);
  outB[at] = fmix(b);
}

/** The volatile fields of one line, in order (the substrings its template masks). */
export function volatileFields(line: string): string[] {
  const fields = scanner.scan(line, 0, line.length);
  const out: string[] = [];
  for (let f = 0; f < fields; f++) out.push(line.slice(scanner.starts[f], scanner.ends[f]));
  return out;
}

/**
 * The first `most` volatile fields of each line [starts[i], ends[i]) as spans
 * (FieldSpans: line i's fields are first[i] to first[i + 1] - 1).
 */
export function volatileFieldSpans(
  text: string,
  starts: Int32Array,
  ends: Int32Array,
  count: number,
  most: number,
): FieldSpans {
  checkLineRanges(text.length, starts, ends, count);
  checkFieldCount(most);
  const first = new Int32Array(count + 1);
  const spans: number[] = [];
  let width = 0;
  for (let i = 0; i < count; i++) {
    first[i] = spans.length / 2;
    const fields = Math.min(scanner.scan(text, starts[i]!, ends[i]!, most), most);
    for (let f = 0; f < fields; f++) spans.push(scanner.starts[f]!, scanner.ends[f]!);
    width = Math.max(width, fields);
  }
  first[count] = spans.length / 2;
  return { spans: Int32Array.from(spans), first, width };
}

/** The line's template with each field (each U+FFFF) shown as `placeholder`, for display. */
export function templateText(line: string, placeholder = '<*>'): string {
  if (masked.length < line.length) masked = new Uint16Array(line.length);
  const n = maskLine(line, 0, line.length, scanner.scan(line, 0, line.length));
  let out = '';
  let from = 0;
  for (let i = 0; i < n; i++) {
    if (masked[i] !== PLACEHOLDER) continue;
    out += unitsToString(from, i) + placeholder;
    from = i + 1;
  }
  return out + unitsToString(from, n);
}

/** masked[from, to) as a string, in chunks that stay within argument limits. */
function unitsToString(from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i += 8192) out += String.fromCharCode(...masked.subarray(i, Math.min(to, i + 8192)));
  return out;
}
