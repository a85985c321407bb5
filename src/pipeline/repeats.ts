// Repeats of recent results (docs/GLOSSARY.md): a block of lines the model was already shown verbatim
// in one of the last N results becomes a one-line reference to it. Recent
// results are remembered by what the model saw (our outputs), so a reference
// always points at text that is in the context.
import { createBackend, RecentBlocks, TextAnalysis, type BackendPreference, type SeenBlock } from '../engine/index.js';
import { count, cutChars } from '../text/strings.js';

/** A block must carry at least this many characters to be worth a reference. */
const MIN_BLOCK_CHARS = 120;

export class RecentResults {
  private readonly blocks: RecentBlocks;
  private sequence = 0;

  constructor(capacity: number, private readonly backend: BackendPreference) {
    this.blocks = new RecentBlocks({ capacity });
  }

  /** Remembers what the model was shown for one result. */
  remember(output: string): void {
    this.blocks.add(new TextAnalysis(output, createBackend(this.backend)), `#${++this.sequence}`);
  }

  /**
   * The text with blocks seen in recent results replaced by references, and
   * how many lines went; null when nothing substantial repeats.
   */
  dedupe(analysis: TextAnalysis): { text: string; lines: number } | null {
    const { start, end } = analysis.lines;
    const seen = this.blocks
      .find(analysis)
      .filter((b: SeenBlock) => end[b.start + b.lines - 1]! - start[b.start]! >= MIN_BLOCK_CHARS);
    if (seen.length === 0) return null;
    const parts: string[] = [];
    let from = 0;
    let lines = 0;
    for (const block of seen) {
      parts.push(analysis.text.slice(from, start[block.start]));
      const first = cutChars(analysis.line(block.start).trim(), 80);
      parts.push(`[… ${count(block.lines)} lines repeated verbatim from an earlier tool result, starting: ${first} …]\n`);
      const last = block.start + block.lines - 1;
      from = last + 1 < analysis.lines.count ? start[last + 1]! : analysis.text.length;
      lines += block.lines;
    }
    parts.push(analysis.text.slice(from));
    return { text: parts.join(''), lines };
  }
}
