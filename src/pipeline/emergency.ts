// The emergency level: only the preserved items survive, under the one-line
// type-aware preview; everything else is counted as omitted.
import type { TextAnalysis } from '../engine/index.js';
import { preservedLines } from '../processors/log/priority.js';
import { omission } from '../processors/markers.js';
import type { ProcessorOutput } from '../types.js';
import { type CcrType, preview } from './ccr.js';
import type { PreservedItem } from './preserve.js';

export function emergencyOutput(
  analysis: TextAnalysis,
  type: CcrType,
  items: readonly PreservedItem[],
  previewMaxChars: number,
): ProcessorOutput {
  const kept = items.map((item) => item.text);
  const lines = [`[${type}:${preview(type, analysis.text, previewMaxChars)}]`, ...kept];
  const dropped = analysis.lines.count - preservedLines(analysis, kept).size;
  if (dropped > 0) lines.push(omission(dropped, 'line', { 'non-preserved lines': dropped }));
  return { text: lines.join('\n'), omitted: { 'non-preserved lines': dropped } };
}
