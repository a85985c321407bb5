// The emergency level (seed 001): only the lines holding preserved items
// survive, whole and in order, under the seed-002 one-line type-aware preview
// (`[terminal:exit 1 | 600 lines | …]`, a note in docs/MARKERS.md); every gap
// between them is a marker naming its original lines.
import type { TextAnalysis } from '../engine/index.js';
import { preservedLines } from '../processors/log/priority.js';
import { omittedLines } from '../processors/markers.js';
import type { ProcessorOutput } from '../types.js';
import { type CcrType, preview } from './ccr.js';
import type { PreservedItem } from './preserve.js';

export function emergencyOutput(
  analysis: TextAnalysis,
  type: CcrType,
  items: readonly PreservedItem[],
  previewMaxChars: number,
): ProcessorOutput {
  const kept = preservedLines(analysis, items.map((item) => item.text));
  const lines = [`[${type}:${preview(type, analysis.text, previewMaxChars)}]`];
  const n = analysis.lines.count;
  for (let from = 0; from < n; ) {
    if (kept.has(from)) {
      lines.push(analysis.line(from++));
      continue;
    }
    let to = from + 1;
    while (to < n && !kept.has(to)) to++;
    lines.push(omittedLines(from, to));
    from = to;
  }
  const dropped = n - kept.size;
  return { text: lines.join('\n'), omitted: dropped > 0 ? { 'non-preserved lines': dropped } : {} };
}
