// Repeats of recent results (docs/GLOSSARY.md): a block of lines the model was already shown verbatim
// in one of the last N results becomes a one-line reference to it. Recent
// results are remembered by what the model saw (our outputs), so a reference
// always points at text that is in the context.
import {
  createBackend,
  RecentBlocks,
  TextAnalysis,
  type BackendPreference,
  type RememberedResult,
  type SeenBlock,
} from '../engine/index.js';
import { omittedLines } from '../processors/markers.js';
import { cutChars } from '../text/strings.js';
import { type Shortened, ShortenedText } from './shortened.js';

/** A block must carry at least this many characters to be worth a reference. */
const MIN_BLOCK_CHARS = 120;

/**
 * A digest of a text for telling a repeated original from a new one: two
 * 32-bit FNV-1a-style hashes of its UTF-16 units and its length (no
 * node:crypto, so the pipeline runs in a browser too). Shared by the CLI's
 * session memory, which stores it.
 */
export function textDigest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995) ^ (b >>> 15);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}-${text.length}`;
}

export class RecentResults {
  private readonly blocks: RecentBlocks;
  private sequence = 0;
  /** The digests of the recent results' originals (textDigest), newest last. */
  private originals: string[] = [];

  constructor(
    private readonly capacity: number,
    private readonly backend: BackendPreference,
  ) {
    this.blocks = new RecentBlocks({ capacity });
  }

  /** What is remembered: a worker thread's instance restores it to dedupe the same way (see worker.ts). */
  get remembered(): readonly RememberedResult[] {
    return this.blocks.remembered;
  }

  /** Takes over what another instance remembered. */
  restore(remembered: readonly RememberedResult[]): void {
    this.blocks.restore(remembered);
  }

  /** Remembers what the model was shown for one result, and the digest of its original. */
  remember(output: string, original: string): void {
    this.blocks.add(new TextAnalysis(output, createBackend(this.backend)), `#${++this.sequence}`);
    this.originals = [...this.originals.filter((id) => id !== original), original].slice(-this.capacity);
  }

  /** Whether an original with this digest was the original of a recent result. */
  hasOriginal(id: string): boolean {
    return this.originals.includes(id);
  }

  /**
   * The text with blocks seen in recent results replaced by references, how
   * many lines went, and where each line of the new text stands in the
   * original (`starts`: line i stands for original lines [starts[i],
   * starts[i + 1])), for markers to name original lines; null when nothing
   * substantial repeats. Lines in `keep` (preserved items, verdict lines)
   * stay where they are: a block around one is referenced in the parts before
   * and after it.
   */
  dedupe(analysis: TextAnalysis, keep: ReadonlySet<number> = new Set()): Shortened | null {
    const { start, end, count: n } = analysis.lines;
    const big = (from: number, to: number) => to > from && end[to - 1]! - start[from]! >= MIN_BLOCK_CHARS;
    const seen: { start: number; lines: number }[] = [];
    for (const block of this.blocks.find(analysis) as SeenBlock[]) {
      let from = block.start;
      const stop = block.start + block.lines;
      for (let i = from; i <= stop; i++) {
        if (i < stop && !keep.has(i)) continue;
        if (big(from, i)) seen.push({ start: from, lines: i - from });
        from = i + 1;
      }
    }
    if (seen.length === 0) return null;
    const shortened = new ShortenedText(analysis);
    for (const block of seen) {
      // Numbered as a line of this text: the pipeline renumbers it with the rest (markers.ts renumbered).
      const at = shortened.numberAt(block.start);
      const first = cutChars(analysis.line(block.start).trim(), 80);
      const last = block.start + block.lines - 1;
      // A block ending the text keeps its final break, if any (as LF: the reference is squeeze's line).
      const after = last + 1 < n || end[last]! < analysis.text.length ? '\n' : '';
      const reference = `${omittedLines(at, at + 1, `repeated verbatim from an earlier tool result, starting: ${first}`)}${after}`;
      shortened.replace(block.start, last + 1, [reference], [block.start], block.lines);
      shortened.mark(at);
    }
    return shortened.done();
  }
}
