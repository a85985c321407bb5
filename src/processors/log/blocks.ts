// Compiler diagnostics are blocks: the message line, then its source excerpt
// (gcc/clang ` 12 |   code` and `    |   ^~~~`, rustc ` --> file:4:5` and
// gutters, tsc --pretty's numbered source line and `~~~~` underline). A caret
// without its source line, or a source line without its message, misleads:
// a block is shown whole or left out whole.
import type { TextAnalysis } from '../../engine/index.js';

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** A diagnostic's first line: gcc/clang/javac `file:12:3: error:`, rustc `error[E0308]:`, tsc `file:3:7 - error TS2322:`. */
const HEADER =
  /^(?:\S[^:]*:\d+(?::\d+)?: (?:fatal error|error|warning|note|remark):|(?:error|warning)(?:\[[A-Z]*\d+\])?: |(?:help|note): |\S+?[:(]\d+[:,]\d+\)? - (?:error|warning) TS\d+: )/;

/** Excerpt lines of gcc/clang and rustc: gutters, rustc's location arrow, notes, elisions. */
const EXCERPT = /^\s*\d*\s+\|(?:\s|$)|^\s*-->\s|^\s*::: |^\s*= (?:note|help)\b|^\s*\.\.\.\s*$/;

/** tsc --pretty: the numbered source line, the underline, related locations and their messages. */
const TSC_EXCERPT = /^\d+ |^\s+~+\s*$|^ {2}\S+:\d+:\d+\s*$|^ {4}\S/;

/** A note or help that belongs to the diagnostic right before it (rustc's `help:`, gcc's `file:6:12: note:`). */
const CHILD = /^(?:help|note): |^\S[^:]*:\d+(?::\d+)?: note: /;

/** A block never runs longer than this (a runaway match must not swallow the log). */
const MAX_BLOCK_LINES = 60;

function plain(analysis: TextAnalysis, i: number): string {
  const line = analysis.line(i);
  return line.includes('\u001b') ? line.replace(ANSI, '') : line;
}

/** The line after a diagnostic's excerpt, starting at `from`. */
function excerptEnd(analysis: TextAnalysis, header: string, from: number, limit: number): number {
  const tsc = / - (?:error|warning) TS\d+: /.test(header);
  const n = analysis.lines.count;
  let noteIndent = -1;
  let end = from;
  while (end < n && end < limit) {
    const line = plain(analysis, end);
    const indent = line.length - line.trimStart().length;
    if (EXCERPT.test(line) || (tsc && TSC_EXCERPT.test(line))) {
      noteIndent = /^\s*= (?:note|help)\b/.test(line) ? indent : -1;
      end++;
      continue;
    }
    // rustc wraps a `= note:` onto lines indented past its `=`.
    if (noteIndent >= 0 && indent > noteIndent + 2 && line.trim() !== '') {
      end++;
      continue;
    }
    // tsc separates the header, the excerpt and related information with blank lines.
    if (tsc && line.trim() === '' && end + 1 < n && TSC_EXCERPT.test(plain(analysis, end + 1))) {
      end++;
      continue;
    }
    break;
  }
  return end;
}

/**
 * The diagnostic blocks of a log as [start, end) line pairs, in order, each at
 * least two lines long; notes and helps right after a diagnostic join its block.
 */
export function diagnosticBlocks(analysis: TextAnalysis): number[] {
  const n = analysis.lines.count;
  const blocks: number[] = [];
  for (let i = 0; i < n; i++) {
    const first = analysis.line(i);
    // Cheap gate: every header has a ':' within its first 200 characters.
    const colon = first.indexOf(':');
    if (colon === -1 || colon > 200) continue;
    const header = plain(analysis, i);
    if (!HEADER.test(header)) continue;
    const end = excerptEnd(analysis, header, i + 1, i + MAX_BLOCK_LINES);
    const joins = blocks.length > 0 && blocks[blocks.length - 1] === i && CHILD.test(header);
    if (joins) blocks[blocks.length - 1] = end;
    else if (end - i >= 2) blocks.push(i, end);
    i = end - 1;
  }
  return blocks;
}

/**
 * Makes every block whole or gone in `kept` (1 = shown): a block stays when its
 * header or any line in `must` (preserved) was kept, and goes otherwise.
 */
export function wholeBlocks(blocks: readonly number[], kept: Uint8Array, must: ReadonlySet<number>): void {
  for (let b = 0; b < blocks.length; b += 2) {
    const start = blocks[b]!;
    const end = blocks[b + 1]!;
    let stays = kept[start] === 1;
    for (let i = start; i < end && !stays; i++) stays = must.has(i);
    kept.fill(stays ? 1 : 0, start, end);
  }
}
