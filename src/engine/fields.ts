// Field rarity and numeric outliers in one column: the cells a table column,
// a JSON key path or a position in same-shape lines takes, row by row. What
// stands out is what is rare here, whatever tool printed it: a value two rows
// have among 200, an empty cell where the column is nearly always filled, a
// number far outside the column's bulk. No list of words decides it.

/** A cell as printed; `undefined` where the row has no such field (a JSON record without the key). */
export type Cell = string | undefined;

/** Fewest rows before a value can be rare: among fewer, every value is a few rows'. */
export const MIN_ROWS = 10;
/** Robust deviations (MAD scaled to a standard deviation) beyond which a number is an outlier. */
const OUTLIER_DEVIATIONS = 6;
/** ...and at least this many times the median's size (998877.66 among 20-400; not 160 ms among 40 ms). */
const MAGNITUDE = 10;
const NUMBER = /^([-+]?\d[\d,]*(?:\.\d+)?)([A-Za-z%]{0,3})$/;
/** Longest cell read as a category value (a state, a reason, a name). */
const CATEGORY_CHARS = 120;
/** Most rows a zero among positive numbers may have to stand out: more are a category of their own (idle processes). */
const LONE = 2;
const EMPTY = /^(?:|null|NULL|None|nil|<nil>|<null>|NaN|undefined|-)$/;

/** Most rows a rare value, empty cell or outlier may have: two among 10-19 rows, a tenth of more. */
export function rareLimit(rows: number): number {
  return rows < MIN_ROWS ? 0 : rows < 20 ? 2 : Math.max(2, Math.floor(rows / 10));
}

/** A number as a cell prints it, with its unit. */
export interface CellNumber {
  readonly value: number;
  readonly unit: string;
}

/** The number a cell prints, with its unit (`12ms`, `3.5%`, `1,024`), or null. */
export function numberOf(cell: string): CellNumber | null {
  const m = NUMBER.exec(cell);
  if (!m) return null;
  const value = Number(m[1]!.replaceAll(',', ''));
  return Number.isFinite(value) ? { value, unit: m[2]! } : null;
}

function median(sorted: readonly number[]): number {
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Rows whose number stands out: far from the median by MAD and in size, a rare negative, a rare zero
 * among positives, a rare value where most rows hold the median.
 */
function numericOutliers(values: readonly (readonly [row: number, value: number])[], limit: number): number[] {
  const sorted = values.map(([, v]) => v).sort((a, b) => a - b);
  const mid = median(sorted);
  // Distinct integers are identifiers (task ids, TIDs, line numbers): their extremes mean nothing.
  const ids = sorted.every(Number.isInteger) && new Set(sorted).size >= sorted.length / 2;
  const deviations = sorted.map((v) => Math.abs(v - mid)).sort((a, b) => a - b);
  const mad = median(deviations) * 1.4826;
  let far: number[];
  // Far by MAD and an order of magnitude past the median: counters and ids (task 3 among tasks 40-90) are not.
  const scale = MAGNITUDE * Math.max(Math.abs(mid), 1);
  if (ids) far = [];
  else if (mad > 0)
    far = values
      .filter(([, v]) => Math.abs(v - mid) > OUTLIER_DEVIATIONS * mad && Math.abs(v) >= scale)
      .map(([r]) => r);
  // Most rows hold the median itself (status 200 in every row but two): the rows that do not stand out.
  else far = values.filter(([, v]) => v !== mid).map(([r]) => r);
  // Heavy tails are a distribution, not an anomaly.
  if (far.length > limit) far = [];
  const negative = values.filter(([, v]) => v < 0).map(([r]) => r);
  if (negative.length > 0 && negative.length <= limit && sorted[negative.length]! >= 0)
    for (const r of negative) far.push(r);
  // A rare zero among positive numbers (a 0 ms among real timings, a lone empty count).
  const zero = values.filter(([, v]) => v === 0).map(([r]) => r);
  const loneZero = zero.length > 0 && zero.length <= Math.min(limit, LONE) && sorted[zero.length]! > 0;
  if (!ids && mad > 0 && sorted[0] === 0 && loneZero) for (const r of zero) far.push(r);
  return far;
}

/** Cells parsed as numbers of the column's one unit, or null when the column is not numeric. */
function numericColumn(cells: readonly Cell[], filled: number): (readonly [number, number])[] | null {
  if (filled < MIN_ROWS) return null;
  return numbersOfOneUnit(
    cells.map((cell) => (cell === undefined ? null : numberOf(cell.trim()))),
    filled,
  );
}

/** Parsed cells (null: absent or not a number) as [row, value] of the column's one unit, or null when not numeric. */
function numbersOfOneUnit(
  parsed: readonly (CellNumber | null)[],
  filled: number,
): (readonly [number, number])[] | null {
  const units = new Map<string, number>();
  for (const n of parsed) if (n) units.set(n.unit, (units.get(n.unit) ?? 0) + 1);
  const [unit, withUnit] = [...units].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  // Nine in ten filled cells are numbers of one unit.
  if (withUnit < 0.9 * filled) return null;
  const numbers: (readonly [number, number])[] = [];
  parsed.forEach((n, r) => {
    if (n && n.unit === unit) numbers.push([r, n.value]);
  });
  return numbers;
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
  const numbers =
    filled < MIN_ROWS
      ? null
      : numbersOfOneUnit(
          parsed.map((n) => n ?? null),
          filled,
        );
  return numbers ? numericOutliers(numbers, limit) : [];
}

/**
 * Row indices of `cells` that stand out in their column: an empty or missing
 * cell where at most `rareLimit` rows lack one, a categorical value (digits
 * masked: `Up 3 hours` ~ `Up 9 hours`) at most that many rows have while one
 * value holds most rows, or a numeric outlier. Empty when the column has fewer
 * than MIN_ROWS rows or nothing stands out.
 */
export function rareCells(cells: readonly Cell[]): number[] {
  const rows = cells.length;
  const limit = rareLimit(rows);
  if (limit === 0) return [];
  const found = new Set<number>();
  const empty = new Set<number>();
  cells.forEach((cell, r) => {
    if (cell === undefined || EMPTY.test(cell.trim())) empty.add(r);
  });
  if (empty.size > 0 && empty.size <= limit) for (const r of empty) found.add(r);
  const numbers = numericColumn(
    cells.map((cell, r) => (empty.has(r) ? undefined : cell)),
    rows - empty.size,
  );
  if (numbers) {
    for (const r of numericOutliers(numbers, limit)) found.add(r);
    return [...found].sort((a, b) => a - b);
  }
  for (const r of rareCategories(cells, limit)) if (!empty.has(r)) found.add(r);
  return [...found].sort((a, b) => a - b);
}

/**
 * Rows holding a value at most `most` rows have, in a categorical column: few
 * distinct values (digits masked) and one of them the bulk, so not names, ids
 * or timestamps (`-rwxrwxrwx` among 300 `-rw-r--r--`, `CrashLoopBackOff`
 * among `Running`). Empty below MIN_ROWS rows.
 */
export function rareCategories(cells: readonly Cell[], most: number): number[] {
  const rows = cells.length;
  if (rows < MIN_ROWS) return [];
  const counts = new Map<string, number>();
  // Long cells (messages, stacks) are no category: they count as themselves, unmasked.
  const masked = cells.map((cell) =>
    cell === undefined ? '\u0000absent' : cell.length > CATEGORY_CHARS ? cell : cell.trim().replace(/\d+/g, '#'),
  );
  for (const v of masked) counts.set(v, (counts.get(v) ?? 0) + 1);
  let bulk = 0;
  for (const k of counts.values()) bulk = Math.max(bulk, k);
  if (counts.size < 2 || counts.size > Math.max(3, rows / 4) || bulk < rows / 2) return [];
  const found: number[] = [];
  masked.forEach((v, r) => {
    if (counts.get(v)! <= most) found.push(r);
  });
  return found;
}

/**
 * How many columns each row stands out in (see rareCells), for rows given as
 * their cells by column: `columns[c][r]` is row r's cell in column c.
 */
export function rowAnomalies(columns: readonly (readonly Cell[])[], rows: number): Uint16Array {
  const score = new Uint16Array(rows);
  for (const column of columns) for (const r of rareCells(column)) score[r]!++;
  return score;
}
