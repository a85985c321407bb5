// A text made shorter by replacing stretches of its lines (same-shape runs
// folded, blocks seen in recent results made references), with where each of
// its lines stands in the original, so markers can be renumbered to name
// original lines (markers.ts renumbered). One builder for every such stage.
import type { TextAnalysis } from '../engine/index.js';

export interface Shortened {
  readonly text: string;
  /** How many original lines went. */
  readonly lines: number;
  /** Line i of `text` stands for original lines [starts[i], starts[i + 1]). */
  readonly starts: Int32Array;
  /** Lines of `text` that are markers, each naming itself (renumbered: the lines it stands for). */
  readonly marked: ReadonlySet<number>;
}

/** Copies the original's lines through, in order, and puts replacements in place of stretches. */
export class ShortenedText {
  private readonly parts: string[] = [];
  private readonly starts: number[] = [];
  private readonly marked = new Set<number>();
  /** Character offset and line of the original copied up to. */
  private from = 0;
  private line = 0;
  private gone = 0;

  constructor(private readonly analysis: TextAnalysis) {}

  /** The line number in the new text that original line `at` (not yet reached) will have if copied up to it. */
  numberAt(at: number): number {
    return this.starts.length + at - this.line;
  }

  /**
   * Original lines up to `from` copied, then `pieces` (each standing for the
   * original line in `pieceStarts`; those in `markers` are marker lines) in
   * place of lines [from, to), `hidden` of which went.
   */
  replace(from: number, to: number, pieces: readonly string[], pieceStarts: readonly number[], hidden: number): void {
    const { start, count: n } = this.analysis.lines;
    this.parts.push(this.analysis.text.slice(this.from, start[from]));
    for (; this.line < from; this.line++) this.starts.push(this.line);
    this.parts.push(...pieces);
    this.starts.push(...pieceStarts);
    this.from = to < n ? start[to]! : this.analysis.text.length;
    this.line = to;
    this.gone += hidden;
  }

  /** Marks line `at` of the new text as a marker line. */
  mark(at: number): void {
    this.marked.add(at);
  }

  /** The shortened text, or null when nothing went. */
  done(): Shortened | null {
    if (this.gone === 0) return null;
    const n = this.analysis.lines.count;
    const starts = [...this.starts];
    for (let line = this.line; line < n; line++) starts.push(line);
    starts.push(n);
    return {
      text: this.parts.join('') + this.analysis.text.slice(this.from),
      lines: this.gone,
      starts: Int32Array.from(starts),
      marked: this.marked,
    };
  }
}
