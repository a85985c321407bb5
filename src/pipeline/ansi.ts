// Colour and cursor codes go from what the model sees, at every level: a
// coloured test run costs twice its plain tokens for nothing the model reads.
// Only lines the analysis flagged (LineFlag.Ansi) are touched, and each keeps
// its place (the codes hold no line break), so markers number the original's
// lines; the stored original keeps every byte, and the notice says so once.
import { LineFlag } from '../engine/flags.js';
import { TextAnalysis } from '../engine/index.js';
import type { Backend } from '../engine/types.js';
import { withoutTerminalCodes } from '../text/ansi.js';

/**
 * The analysis of the analysed text without its terminal codes (on
 * `backend`), or null when it has none; the lines without codes keep the
 * classes they had.
 */
export function plainAnalysis(analysis: TextAnalysis, backend: Backend): TextAnalysis | null {
  const { flags, summary } = analysis.classes;
  if ((summary & LineFlag.Ansi) === 0) return null;
  const { text } = analysis;
  const { count, start, end } = analysis.lines;
  const parts: string[] = [];
  const changed: number[] = [];
  let from = 0;
  for (let i = 0; i < count; i++) {
    if ((flags[i]! & LineFlag.Ansi) === 0) continue;
    parts.push(text.slice(from, start[i]!), withoutTerminalCodes(text.slice(start[i]!, end[i]!)));
    changed.push(i);
    from = end[i]!;
  }
  parts.push(text.slice(from));
  const plain = parts.join('');
  return plain === text ? null : TextAnalysis.edited(analysis, plain, changed, backend);
}
