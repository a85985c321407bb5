// A table's cells, read a column at a time: analyse holds one column's
// strings while it reads that column, and no row is an array of its fields.
// A delimited row is kept as where its fields end (one indexOf each), its
// cells sliced when their column is read; a row with quotes, and a row split
// at runs of whitespace, are split whole.
import type { Tick } from '../errors.js';

/** Column c's cells, row by row (a missing cell is an empty one). */
export type ColumnCells = (c: number) => string[];

/**
 * Cells of rows split on a one-unit `delimiter` into at most `width` read
 * fields, trimmed; `split` (splitDelimited, trimmed) reads a row with quotes.
 */
export function delimitedCells(
  lines: readonly string[],
  rows: readonly number[],
  width: number,
  delimiter: string,
  split: (line: string) => string[],
  tick: Tick,
): ColumnCells {
  // Where field k of row r ends (its delimiter, or the line's end), -1 when the row has no field k.
  const ends = new Int32Array(rows.length * width).fill(-1);
  const quoted: (string[] | undefined)[] = new Array(rows.length);
  rows.forEach((i, r) => {
    tick();
    const line = lines[i]!;
    if (line.includes('"')) {
      quoted[r] = split(line);
      return;
    }
    for (let k = 0, from = 0; k < width; k++) {
      const at = line.indexOf(delimiter, from);
      ends[r * width + k] = at < 0 ? line.length : at;
      if (at < 0) break;
      from = at + 1;
    }
  });
  return (c) =>
    rows.map((i, r) => {
      const cells = quoted[r];
      if (cells !== undefined) return cells[c] ?? '';
      const end = ends[r * width + c]!;
      if (end < 0) return '';
      const start = c === 0 ? 0 : ends[r * width + c - 1]! + 1;
      return lines[i]!.slice(start, end).trim();
    });
}

/** Cells of rows cut at fixed column starts (an aligned header, a rule), trimmed. */
export function alignedCells(
  lines: readonly string[],
  rows: readonly number[],
  starts: readonly number[],
): ColumnCells {
  return (c) => rows.map((i) => alignedCell(lines[i]!, starts, c));
}

/** Column c of a line whose columns start at `starts`, trimmed. */
export function alignedCell(line: string, starts: readonly number[], c: number): string {
  return line.slice(starts[c]!, starts[c + 1] ?? line.length).trim();
}

/** Cells of rows `split` reads whole (at runs of whitespace). */
export function splitCells(
  lines: readonly string[],
  rows: readonly number[],
  split: (line: string) => string[],
  tick: Tick,
): ColumnCells {
  const fields = rows.map((i) => {
    tick();
    return split(lines[i]!);
  });
  return (c) => fields.map((row) => row[c] ?? '');
}
