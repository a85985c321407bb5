// What the table processor reads a table as: parse's lines, rows and cells,
// and analyse's standout rows and shape groups (index.ts makes both; layout.ts
// lays them out at a detail setting).
import type { ColumnCells } from './cells.js';

export interface Table {
  readonly lines: readonly string[];
  /** Index of the header line. */
  readonly header: number;
  /** Row line indexes (after the header, separators excluded). */
  readonly rows: readonly number[];
  /** Per line, its row index, -1 for the header, separators and blank lines (every render reads it). */
  readonly rowOf: Int32Array;
  /** Each column's cells, read when asked (cells.ts). */
  readonly cells: ColumnCells;
  readonly columns: readonly string[];
}

export interface Analysis {
  /** Standout row positions (into table.rows), most telling first. */
  readonly standouts: readonly number[];
  /** Shape group label of each row. */
  readonly group: readonly string[];
}

export interface Detail {
  /** Rows shown per shape group, in order. */
  readonly perGroup: number;
  /** Standout rows shown, most telling first. */
  readonly standouts: number;
  /** Groups named per marker. */
  readonly groups: number;
}
