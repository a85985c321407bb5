// Field rarity and numeric outliers in one column: the cells a table column,
// a JSON key path or a position in same-shape lines takes, row by row. What
// stands out is what is rare here, whatever tool printed it: a value two rows
// have among 200, an empty cell where the column is nearly always filled, a
// number far outside the column's bulk. No list of words decides it.
import { hasAsciiDigit, isAsciiDigit } from '../text/strings.js';
import { countRuns } from './sequences.js';
import { middleValue } from './median.js';

/** A cell as printed; `undefined` where the row has no such field (a JSON record without the key). */
export type Cell = string | undefined;

/** Fewest rows before a value can be rare: among fewer, every value is a few rows'. */
export const MIN_ROWS = 10;
/** Robust deviations (MAD scaled to a standard deviation) beyond which a number is an outlier. */
const OUTLIER_DEVIATIONS = 6;
/** ...and at least this many times the median's size (998877.66 among 20-400; not 160 ms among 40 ms). */
const MAGNITUDE = 10;
/** Longest cell read as a category value (a state, a reason, a name). */
const CATEGORY_CHARS = 120;
/** Most rows a zero among positive numbers may have to stand out: more are a category of their own (idle processes). */
const LONE = 2;
/** Cells that print no value. */
const EMPTY = new Set(['', 'null', 'NULL', 'None', 'nil', '<nil>', '<null>', 'NaN', 'undefined', '-']);

/** The first characters of the values that print none: a cell starting otherwise is not looked up. */
const EMPTY_STARTS = [...EMPTY].map((value) => value.charAt(0)).join('');

/** Whether a cell prints no value (numbers, dates, ids and most words are told by their first character). */
function isEmptyCell(cell: string): boolean {
  return cell === '' || (EMPTY_STARTS.includes(cell.charAt(0)) && EMPTY.has(cell));
}

/** Most rows a rare value, empty cell or outlier may have: two among 10-19 rows, a tenth of more. */
export function rareLimit(rows: number): number {
  return rows < MIN_ROWS ? 0 : rows < 20 ? 2 : Math.max(2, Math.floor(rows / 10));
}

/** Whether `a` and `b` differ only in digits where both hold one (so mask to one value). */
function sameDigitPlaces(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    if (x !== y && !(isAsciiDigit(x) && isAsciiDigit(y))) return false;
  }
  return true;
}

/** A number as a cell prints it, with its unit. */
export interface CellNumber {
  readonly value: number;
  readonly unit: string;
}

/** The number a cell prints, with its unit (`12ms`, `3.5%`, `1,024`), or null. */
export function numberOf(cell: string): CellNumber | null {
  return numberAt(cell, 0, cell.length);
}

/**
 * The number text[start, end) prints, with its unit, or null: a sign, a digit,
 * digits and commas, a fraction, then up to 3 letters or `%` and nothing more
 * (what `/^([-+]?\d[\d,]*(?:\.\d+)?)([A-Za-z%]{0,3})$/` reads), scanned from
 * the span so a caller holding a line need not slice its fields.
 */
export function numberAt(text: string, start: number, end: number): CellNumber | null {
  let k = start;
  let c = text.charCodeAt(k);
  if (c === 43 || c === 45) c = text.charCodeAt(++k); // + -
  if (k >= end || !isAsciiDigit(c)) return null;
  let commas = false;
  for (k++; k < end; k++) {
    c = text.charCodeAt(k);
    if (c === 44) commas = true;
    else if (!isAsciiDigit(c)) break;
  }
  if (k + 1 < end && text.charCodeAt(k) === 46 && isAsciiDigit(text.charCodeAt(k + 1))) {
    for (k += 2; k < end && isAsciiDigit(text.charCodeAt(k)); k++);
  }
  const digitsEnd = k;
  for (; k < end && k < digitsEnd + 3; k++) {
    c = text.charCodeAt(k);
    if (!(((c | 32) >= 97 && (c | 32) <= 122) || c === 37)) break;
  }
  if (k !== end) return null;
  const digits = text.slice(start, digitsEnd);
  const value = Number(commas ? digits.replaceAll(',', '') : digits);
  return Number.isFinite(value) ? { value, unit: digitsEnd === end ? '' : text.slice(digitsEnd, end) } : null;
}

/**
 * One column read once: its cells trimmed, which are empty, and (when first
 * asked) each cell's number and its digit-masked value. Every rule here and
 * every processor that reads the column reads these; none parses a cell twice.
 */
export class Column {
  /** The cells trimmed (`undefined` where the row has no such field). */
  readonly cells: readonly Cell[];
  /** Rows whose cell is missing or empty (`''`, `null`, `-`, `NaN`…). */
  readonly empty: readonly number[];
  #numbers: readonly (CellNumber | null | undefined)[] | null | undefined;
  #masked: readonly string[] | undefined;
  #counts: ReadonlyMap<string, number> | undefined;

  constructor(cells: readonly Cell[]) {
    const trimmed = new Array<Cell>(cells.length);
    const empty: number[] = [];
    for (let r = 0; r < cells.length; r++) {
      const cell = cells[r]?.trim();
      trimmed[r] = cell;
      if (cell === undefined || isEmptyCell(cell)) empty.push(r);
    }
    this.cells = trimmed;
    this.empty = empty;
  }

  /**
   * Each cell's number (null: not a number; undefined: no cell), or null
   * for the whole column once it cannot be numeric: more than a tenth of its
   * filled cells and a fifth of all its cells are not numbers (the rules here
   * need nine in ten filled cells numbers, the table processor four in five
   * of all), so a column of words costs a fifth of its cells, not all of them.
   */
  numbers(): readonly (CellNumber | null | undefined)[] | null {
    if (this.#numbers !== undefined) return this.#numbers;
    const { cells } = this;
    const filled = cells.length - this.empty.length;
    const parsed = new Array<CellNumber | null | undefined>(cells.length);
    let failedFilled = 0;
    let failed = 0;
    for (let r = 0; r < cells.length; r++) {
      const cell = cells[r];
      const n = cell === undefined ? undefined : numberOf(cell);
      parsed[r] = n;
      if (n !== null) continue;
      failed++;
      // Empty cells are no numbers but are not filled ones.
      if (!isEmptyCell(cell!)) failedFilled++;
      if (failedFilled > 0.1 * filled && failed > 0.2 * cells.length) return (this.#numbers = null);
    }
    this.#numbers = parsed;
    return parsed;
  }

  /**
   * Each cell as a category value: digits masked (`Up 3 hours` ~ `Up 9
   * hours`); long cells (messages, stacks) as themselves; a missing cell as
   * its own value.
   */
  masked(): readonly string[] {
    if (this.#masked !== undefined) return this.#masked;
    const masked = new Array<string>(this.cells.length);
    // The last cell masked, and its mask: a cell with its digits in the same
    // places (ids, dates and times counting up) masks alike, read in one scan
    // with no pattern run, and is one string for the counts to hash.
    let last = '';
    let lastMasked = '';
    this.cells.forEach((cell, r) => {
      // Most category values have no digit: nothing to mask.
      if (cell === undefined) masked[r] = '\u0000absent';
      else if (cell.length > CATEGORY_CHARS || !hasAsciiDigit(cell)) masked[r] = cell;
      else {
        if (!sameDigitPlaces(cell, last)) lastMasked = cell.replace(/\d+/g, '#');
        last = cell;
        masked[r] = lastMasked;
      }
    });
    this.#masked = masked;
    return masked;
  }
  /** How many rows hold each masked value. */
  counts(): ReadonlyMap<string, number> {
    if (this.#counts === undefined) {
      const counts = new Map<string, number>();
      const masked = this.masked();
      countRuns(0, masked.length, (r) => masked[r]!, counts);
      this.#counts = counts;
    }
    return this.#counts;
  }
}

/** A numeric column's numbers of its one unit, with the rows they are in. */
interface Numbers {
  readonly rows: readonly number[];
  readonly values: Float64Array;
}

/** Share of distinct values at which a column of integers is one of identifiers. */
const IDENTIFIER_SHARE = 0.9;

/** How many distinct values a sorted array holds. */
function distinct(sorted: Float64Array): number {
  let k = sorted.length > 0 ? 1 : 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[i - 1]) k++;
  return k;
}

/**
 * Whether at least `share` of the integers are distinct: never when their
 * range holds fewer integers (counts, cents, sizes in a small range), else
 * counted in a sorted copy.
 */
function mostlyDistinct(values: Float64Array, share: number): boolean {
  const need = share * values.length;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (values.length > 0 && max - min + 1 < need) return false;
  return distinct(values.slice().sort()) >= need;
}

/** The median absolute deviation from `mid`, scaled to a standard deviation. */
export function medianDeviation(values: Float64Array, mid: number): number {
  const deviations = new Float64Array(values.length);
  for (let k = 0; k < values.length; k++) deviations[k] = Math.abs(values[k]! - mid);
  return middleValue(deviations, true) * 1.4826;
}

/** Rows whose value passes `test`, in row order. */
function rowsWhere(numbers: Numbers, test: (value: number) => boolean): number[] {
  const found: number[] = [];
  for (let k = 0; k < numbers.rows.length; k++) if (test(numbers.values[k]!)) found.push(numbers.rows[k]!);
  return found;
}

/**
 * Rows whose number stands out: far from the median by MAD and in size, a rare negative, a rare zero
 * among positives, a rare value where most rows hold the median.
 */
function numericOutliers(numbers: Numbers, limit: number): number[] {
  const { values } = numbers;
  const mid = middleValue(values);
  // Integers nearly all distinct are identifiers (task ids, PIDs, line numbers; threads share a PID,
  // files a line number): their extremes mean nothing. Measurements repeat (durations in ms, sizes:
  // 250 distinct among 300), and a far one among them stands out.
  const ids = values.every(Number.isInteger) && mostlyDistinct(values, IDENTIFIER_SHARE);
  // Identifiers have no far values and no lone zero: their spread is not needed.
  const mad = ids ? 0 : medianDeviation(values, mid);
  let far: number[];
  // Far by MAD and an order of magnitude past the median: counters and ids (task 3 among tasks 40-90) are not.
  const scale = MAGNITUDE * Math.max(Math.abs(mid), 1);
  if (ids) far = [];
  else if (mad > 0)
    far = rowsWhere(numbers, (v) => Math.abs(v - mid) > OUTLIER_DEVIATIONS * mad && Math.abs(v) >= scale);
  // Most rows hold the median itself (status 200 in every row but two): the rows that do not stand out.
  else far = rowsWhere(numbers, (v) => v !== mid);
  // Heavy tails are a distribution, not an anomaly.
  if (far.length > limit) far = [];
  // A rare negative among non-negative numbers.
  const negative = rowsWhere(numbers, (v) => v < 0);
  if (negative.length > 0 && negative.length <= limit && negative.length < values.length) far.push(...negative);
  // A rare zero among positive numbers (a 0 ms among real timings, a lone empty count): no negative, not all zeros.
  const zero = rowsWhere(numbers, (v) => v === 0);
  const loneZero =
    zero.length > 0 && zero.length <= Math.min(limit, LONE) && negative.length === 0 && zero.length < values.length;
  if (!ids && mad > 0 && loneZero) far.push(...zero);
  return far;
}

/** Parsed cells (null or undefined: not a number) as the numbers of the column's one unit, or null when not numeric. */
function numbersOfOneUnit(parsed: readonly (CellNumber | null | undefined)[], filled: number): Numbers | null {
  // A column prints one unit: counted by runs. Cells that are no number have none.
  const units = new Map<string | undefined, number>();
  countRuns(0, parsed.length, (r) => parsed[r]?.unit, units);
  units.delete(undefined);
  const [unit, withUnit] = [...units].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  // Nine in ten filled cells are numbers of one unit.
  if (withUnit < 0.9 * filled) return null;
  const rows: number[] = [];
  const values = new Float64Array(withUnit);
  parsed.forEach((n, r) => {
    if (n && n.unit === unit) values[rows.push(r) - 1] = n.value;
  });
  return { rows, values };
}

/**
 * Rows of a numeric column whose number stands out, at most `most` of them
 * (more is a distribution, not an anomaly); empty when the column is not
 * numeric. The cells come parsed (numberOf of each trimmed cell; null where
 * it is not a number, undefined where the row has no such cell), so a caller
 * that parsed them to see whether the column is numeric parses them once.
 */
export function outlierNumbers(parsed: readonly (CellNumber | null | undefined)[], most: number): number[] {
  const limit = parsed.length < MIN_ROWS ? 0 : most;
  if (limit === 0) return [];
  let filled = 0;
  for (const n of parsed) if (n !== undefined) filled++;
  const numbers = filled < MIN_ROWS ? null : numbersOfOneUnit(parsed, filled);
  return numbers ? numericOutliers(numbers, limit) : [];
}

/**
 * Rows of `column` that stand out in it: an empty or missing cell where at
 * most `rareLimit` rows lack one, a categorical value (digits masked) at most
 * that many rows have while one value holds most rows, or a numeric outlier.
 * Empty when the column has fewer than MIN_ROWS rows or nothing stands out.
 */
export function rareCells(column: Column): number[] {
  const rows = column.cells.length;
  const limit = rareLimit(rows);
  if (limit === 0) return [];
  const { empty } = column;
  const found = new Set<number>(empty.length <= limit ? empty : []);
  const filled = rows - empty.length;
  // Empty cells parse as no number: the column's numbers are its filled cells'.
  const parsed = filled < MIN_ROWS ? null : column.numbers();
  const numbers = parsed === null ? null : numbersOfOneUnit(parsed, filled);
  if (numbers) for (const r of numericOutliers(numbers, limit)) found.add(r);
  else {
    const isEmpty = new Set(empty);
    for (const r of rareCategories(column, limit)) if (!isEmpty.has(r)) found.add(r);
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * Rows holding a value at most `most` rows have, in a categorical column: few
 * distinct values (digits masked) and one of them the bulk, so not names, ids
 * or timestamps (`-rwxrwxrwx` among 300 `-rw-r--r--`, `CrashLoopBackOff`
 * among `Running`). Empty below MIN_ROWS rows.
 */
export function rareCategories(column: Column, most: number): number[] {
  const rows = column.cells.length;
  if (rows < MIN_ROWS) return [];
  const masked = column.masked();
  const counts = column.counts();
  let bulk = 0;
  for (const k of counts.values()) bulk = Math.max(bulk, k);
  if (counts.size < 2 || counts.size > Math.max(3, rows / 4) || bulk < rows / 2) return [];
  const found: number[] = [];
  masked.forEach((v, r) => {
    if (counts.get(v)! <= most) found.push(r);
  });
  return found;
}
