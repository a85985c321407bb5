// A table's output at a detail setting, as the pieces it is made of: the
// original lines it shows and a marker for each run of rows between them.
// A budget search tries a dozen settings on tables of 100,000 rows: a layout
// costs the rows it shows and the table's non-row lines, never a pass over
// the rows it hides, and is priced from per-line token costs with no text
// joined (docs/ANALYSIS.md: no re-render to re-estimate).
import { lowerBound } from '../../engine/index.js';
import type { OutputCosts } from '../costs.js';
import type { Tick } from '../errors.js';
import { count, linesOmission, omittedLines, type PlacedOmission, plural } from '../markers.js';
import type { ProcessorOutput } from '../../types.js';
import type { Analysis, Detail, Table } from './types.js';

/** A marker and the rows it counts. */
interface Marker {
  readonly text: string;
  readonly omission: PlacedOmission;
  readonly rows: number;
}

/** An original line (its index) or a marker. */
export type Piece = number | Marker;

export class TableLayout {
  /** Group labels in order of their first row, and each group's rows in order (a gap's counts are two searches a group). */
  private readonly names: string[] = [];
  private readonly members: Int32Array[] = [];
  /** Lines that are not rows (the header, a legend above it, rules, blanks), in order, and how many rows come before each. */
  private readonly others: Int32Array;
  private readonly rowsBefore: Int32Array;
  /** Gaps by rows and groups named, and their markers' costs: most gaps of one try are the next one's too. */
  private readonly gaps = new Map<string, Piece>();
  private readonly markerMilli = new Map<Marker, number>();

  constructor(
    private readonly table: Table,
    private readonly analysis: Analysis,
    /** Rows that hold a preserved item: always shown. */
    private readonly forced: readonly number[],
    private readonly tick: Tick,
  ) {
    const byName = new Map<string, number[]>();
    analysis.group.forEach((name, r) => {
      let rows = byName.get(name);
      if (rows === undefined) byName.set(name, (rows = []));
      rows.push(r);
    });
    for (const [name, rows] of byName) {
      this.names.push(name);
      this.members.push(Int32Array.from(rows));
    }
    const others: number[] = [];
    const before: number[] = [];
    let rows = 0;
    for (let i = 0; i < table.lines.length; i++) {
      if (table.rowOf[i]! >= 0) rows++;
      else {
        others.push(i);
        before.push(rows);
      }
    }
    this.others = Int32Array.from(others);
    this.rowsBefore = Int32Array.from(before);
  }

  /** The pieces of the output at `d`, in order. */
  pieces(d: Detail): Piece[] {
    const { lines, rows, rowOf, header } = this.table;
    const n = rows.length;
    const shown = new Uint8Array(n);
    const order: number[] = [];
    const show = (r: number) => {
      if (shown[r] === 0) order.push(r);
      shown[r] = 1;
    };
    for (const r of this.analysis.standouts.slice(0, d.standouts)) show(r);
    for (const rowsOfGroup of this.members) {
      const k = Math.min(d.perGroup, rowsOfGroup.length);
      for (let j = 0; j < k; j++) show(rowsOfGroup[j]!);
    }
    for (const r of this.forced) show(r);
    const sorted = Int32Array.from(order).sort();
    const pieces: Piece[] = [];
    // Rows from `from` up to the next piece are hidden: one gap, one marker.
    let from = 0;
    const close = (to: number) => {
      if (to <= from) return;
      const key = `${from} ${to} ${d.groups}`;
      let gap = this.gaps.get(key);
      if (gap === undefined) this.gaps.set(key, (gap = this.gap(from, to - 1, d.groups)));
      pieces.push(gap);
    };
    let k = 0;
    for (let o = 0; o <= this.others.length; o++) {
      const before = o < this.others.length ? this.rowsBefore[o]! : n;
      for (; k < sorted.length && sorted[k]! < before; k++) {
        this.tick();
        const r = sorted[k]!;
        close(r);
        pieces.push(rows[r]!);
        from = r + 1;
      }
      if (o === this.others.length) break;
      this.tick();
      const line = this.others[o]!;
      // Blank and separator lines inside a gap stay inside it.
      const next = line + 1 < lines.length ? rowOf[line + 1]! : -1;
      if (line > header && before > from && next >= 0 && shown[next] === 0) continue;
      close(before);
      from = before;
      pieces.push(line);
    }
    close(n);
    return pieces;
  }

  /** Rows first..last hidden: their marker naming the `groups` biggest groups among them, or a lone short row itself. */
  private gap(first: number, last: number, groups: number): Piece {
    const { lines, rows } = this.table;
    const found: { name: string; rows: number; first: number }[] = [];
    this.members.forEach((rowsOfGroup, g) => {
      const lo = lowerBound(rowsOfGroup, first);
      const hi = lowerBound(rowsOfGroup, last + 1);
      if (hi > lo) found.push({ name: this.names[g]!, rows: hi - lo, first: rowsOfGroup[lo]! });
    });
    // Biggest first; of equal ones, the one met first.
    found.sort((a, b) => b.rows - a.rows || a.first - b.first);
    const named = found.slice(0, groups).map((f) => `${count(f.rows)} ${f.name}`);
    const rest = found.slice(groups).reduce((sum, f) => sum + f.rows, 0);
    if (rest > 0) named.push(`${count(rest)} other`);
    const size = last - first + 1;
    const from = rows[first]!;
    const to = rows[last]! + 1;
    const text = omittedLines(from, to, `${plural(size, 'row')}: ${named.join(', ')}`);
    // A lone row no longer than its marker is cheaper shown.
    if (size === 1 && lines[from]!.length <= text.length) return from;
    return { text, omission: linesOmission(from, to), rows: size };
  }

  /** Tokens of the output the pieces make, summed from line and marker costs. */
  tokens(pieces: readonly Piece[], costs: OutputCosts): number {
    let milli = 0;
    for (const piece of pieces) {
      if (typeof piece === 'number') milli += costs.lines(piece, piece);
      else {
        let own = this.markerMilli.get(piece);
        if (own === undefined) this.markerMilli.set(piece, (own = costs.piece(piece.text)));
        milli += own;
      }
    }
    const last = pieces[pieces.length - 1];
    return costs.tokens(milli, typeof last === 'number' && costs.lineEmpty(last));
  }

  /** The output the pieces make. */
  output(pieces: readonly Piece[]): ProcessorOutput {
    const { lines } = this.table;
    const omissions: PlacedOmission[] = [];
    let omitted = 0;
    const text = pieces
      .map((piece) => {
        if (typeof piece === 'number') return lines[piece]!;
        omissions.push(piece.omission);
        omitted += piece.rows;
        return piece.text;
      })
      .join('\n');
    return { text, omitted: omitted ? { 'table rows (counted by shape)': omitted } : {}, omissions };
  }
}
