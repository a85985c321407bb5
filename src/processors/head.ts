// The head of a text as the sniffers read it: lines of the analysis's line
// table and their shape words (TextAnalysis.features), never a split of the
// text. A sniffer looks at the first lines only, so a huge text costs it no
// more than a small one.
import { FEATURE } from '../engine/contract.js';
import type { TextAnalysis } from '../engine/index.js';

/** Indices of the non-blank lines among the first `within` lines, at most `max` of them. */
export function nonBlankHead(analysis: TextAnalysis, within: number, max = within): number[] {
  const { lines, shape } = analysis.features;
  const picked: number[] = [];
  for (let i = 0; i < Math.min(within, lines) && picked.length < max; i++)
    if ((shape[i]! & FEATURE.BLANK) === 0) picked.push(i);
  return picked;
}

/** The first non-blank line's index, or -1 when every line is blank. */
export function firstNonBlank(analysis: TextAnalysis): number {
  // Leading whitespace, however many lines it spans, ends at the first non-blank line's first character.
  const { text } = analysis;
  const offset = text.length - text.trimStart().length;
  return offset === text.length ? -1 : analysis.lineAt(offset);
}
