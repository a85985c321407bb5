// Blocks of lines already seen in recent results (docs/GLOSSARY.md, Repeats of
// recent results: verbatim blocks of the last 3 results, found by a rolling
// hash). Keeps the window fingerprints of the
// last `capacity` results and asks the seen_blocks kernel which blocks of a
// new text they cover; the host maps kernel entry indices back to results.
import type { TextAnalysis } from './analysis.js';
import { checkBlockSize } from './contract.js';
import type { SeenWindows } from './types.js';

/** A block of the current text that appeared verbatim in an earlier result. */
export interface SeenBlock {
  /** First line of the block in the current text. */
  readonly start: number;
  readonly lines: number;
  /** The earlier result, and the line of it where the same block starts. */
  readonly resultId: string;
  readonly sourceLine: number;
}

export interface RecentBlocksOptions {
  /** How many earlier results to remember (default 3: docs/GLOSSARY.md, Repeats of recent results). */
  readonly capacity?: number;
  /** Lines per window: the shortest block that can be recognised (default 4). */
  readonly blockLines?: number;
}

/** One remembered result: its window fingerprints (typed arrays, cheap to send to a worker thread). */
export interface RememberedResult {
  readonly resultId: string;
  readonly hashA: Uint32Array;
  readonly hashB: Uint32Array;
}

export class RecentBlocks {
  readonly capacity: number;
  readonly blockLines: number;
  /** Newest first: on equal windows the kernel reports the first entry, so the newest copy wins. */
  private results: RememberedResult[] = [];
  private seen: { windows: SeenWindows; offsets: number[] } | null = null;

  constructor(options: RecentBlocksOptions = {}) {
    const capacity = options.capacity ?? 3;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a whole number of results >= 1, got ${capacity}`);
    }
    this.capacity = capacity;
    this.blockLines = options.blockLines ?? 4;
    checkBlockSize(this.blockLines);
  }

  /** What is remembered, newest first: another instance restores it to find the same blocks. */
  get remembered(): readonly RememberedResult[] {
    return this.results;
  }

  /** Takes over what another instance remembered (newest first; beyond capacity, the oldest are dropped). */
  restore(remembered: readonly RememberedResult[]): void {
    this.results = remembered.slice(0, this.capacity);
    this.seen = null;
  }

  /** Number of results remembered. */
  get size(): number {
    return this.results.length;
  }

  /** Remembers a result's windows (replacing an earlier result with the same id); forgets the oldest beyond capacity. */
  add(analysis: TextAnalysis, resultId: string): void {
    const { hashA, hashB } = analysis.windows(this.blockLines);
    this.results = [{ resultId, hashA, hashB }, ...this.results.filter((r) => r.resultId !== resultId)].slice(
      0,
      this.capacity,
    );
    this.seen = null;
  }

  /** Blocks of the text that appeared in a remembered result, in line order, non-overlapping. */
  find(analysis: TextAnalysis): SeenBlock[] {
    if (this.results.length === 0) return [];
    const { windows, offsets } = this.concatenated();
    const spans = analysis.seenBlocks(windows, this.blockLines);
    const found: SeenBlock[] = [];
    for (let i = 0; i < spans.count; i++) {
      const entry = spans.source[i]!;
      const owner = windows.owner[entry]!;
      found.push({
        start: spans.start[i]!,
        lines: spans.lines[i]!,
        resultId: this.results[owner]!.resultId,
        sourceLine: entry - offsets[owner]!,
      });
    }
    return found;
  }

  /** Every remembered window in one set of arrays; `owner` is the index in `results`. */
  private concatenated(): { windows: SeenWindows; offsets: number[] } {
    if (this.seen) return this.seen;
    const total = this.results.reduce((n, r) => n + r.hashA.length, 0);
    const hashA = new Uint32Array(total);
    const hashB = new Uint32Array(total);
    const owner = new Int32Array(total);
    const offsets: number[] = [];
    let at = 0;
    this.results.forEach((r, index) => {
      offsets.push(at);
      hashA.set(r.hashA, at);
      hashB.set(r.hashB, at);
      owner.fill(index, at, at + r.hashA.length);
      at += r.hashA.length;
    });
    this.seen = { windows: { hashA, hashB, owner }, offsets };
    return this.seen;
  }
}
