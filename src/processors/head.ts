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
  const [first] = nonBlankHead(analysis, analysis.features.lines, 1);
  if (first !== undefined) return first;
  // Past the head (hundreds of blank lines first): the text's own trim says whether anything follows.
  const { count } = analysis.lines;
  if (count <= analysis.features.lines || analysis.text.trim() === '') return -1;
  for (let i = analysis.features.lines; i < count; i++) if (analysis.line(i).trim() !== '') return i;
  return -1;
}
