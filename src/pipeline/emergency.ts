// The emergency level: only the first line holding each preserved item
// survives, in order (a long one cut to its items), under the one-line
// type-aware preview (`[terminal:exit 1 | 600 lines | …]`, a note in
// docs/MARKERS.md); one marker at the end names every line left out.
import type { TextAnalysis } from '../engine/index.js';
import { charsCut, lineListOmissions, omittedLineList } from '../processors/markers.js';
import type { ProcessorOutput } from '../types.js';
import { type CcrType, preview } from './ccr.js';
import type { PreservedItem } from './preserve.js';

export function emergencyOutput(
  analysis: TextAnalysis,
  type: CcrType,
  items: readonly PreservedItem[],
  previewMaxChars: number,
): ProcessorOutput {
  const texts = items.map((item) => item.text);
  const kept = firstLines(analysis, texts);
  const lines = [`[${type}:${preview(type, analysis.text, previewMaxChars)}]`];
  const dropped: number[] = [];
  for (let i = 0; i < analysis.lines.count; i++) {
    if (kept.has(i)) lines.push(itemsOf(analysis.line(i), texts));
    else dropped.push(i);
  }
  // One marker names every line left out (`lines 1–11, 13–40, … (N)`): a marker per gap would
  // cost more than the preserved lines between them.
  if (dropped.length > 0) lines.push(omittedLineList(dropped, 'not preserved'));
  return {
    text: lines.join('\n'),
    omitted: dropped.length > 0 ? { 'non-preserved lines': dropped.length } : {},
    omissions: lineListOmissions(dropped, analysis.lines.count),
  };
}

/** The line of each item's first occurrence: every item shown once. */
function firstLines(analysis: TextAnalysis, items: readonly string[]): Set<number> {
  const found = new Set<number>();
  for (const item of items) {
    const at = item === '' ? -1 : analysis.text.indexOf(item);
    if (at >= 0) found.add(analysis.lineAt(at));
  }
  return found;
}

/** Past this length a preserved line shows only its items (a minified JSON, a log line of a megabyte). */
const WHOLE_LINE_CHARS = 200;

/**
 * A preserved line whole, or past WHOLE_LINE_CHARS its items only, each cut
 * between marked with its size (a cut line, docs/MARKERS.md): the emergency
 * form must fit the ceiling the levels could not.
 */
export function itemsOf(line: string, items: readonly string[]): string {
  if (line.length <= WHOLE_LINE_CHARS) return line;
  const spans = items
    .flatMap((item) => {
      const at = item === '' ? -1 : line.indexOf(item);
      return at < 0 ? [] : [[at, at + item.length] as [number, number]];
    })
    .sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of spans) {
    if (to <= at) continue;
    const start = Math.max(from, at);
    if (start > at) parts.push(charsCut(start - at));
    parts.push(line.slice(start, to));
    at = to;
  }
  if (at < line.length) parts.push(charsCut(line.length - at));
  return parts.join('');
}
