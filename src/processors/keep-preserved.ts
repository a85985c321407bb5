// Preserved strings (security findings, action items... found by the pipeline)
// must reach the output verbatim. A processor that re-renders its input can
// lose one (entities decoded, JSON re-quoted); those are appended as notes in
// squeeze's own syntax (docs/MARKERS.md), so a line-shaped output still holds
// only original lines besides its markers.
import type { ProcessorInput } from '../types.js';
import { note } from './markers.js';

/** The output, plus a note `[… preserved: <item> …]` for each preserved string of the original it lost. */
export function keepPreserved(output: string, original: string, preserve: readonly string[]): string {
  // The output is checked first: it is short, and holds nearly every item (a scan of an 8 MB original each was most of the cost).
  const missing = [...new Set(preserve)].filter((p) => p !== '' && !output.includes(p) && original.includes(p));
  if (missing.length === 0) return output;
  // Items never span lines (pipeline/preserve.ts matches within one): one note each.
  return [output, ...missing.map((p) => note(`preserved: ${p}`))].join('\n');
}

/**
 * Per line of the input (its `lines`), 1 where it holds a preserved string,
 * as `line.includes(item)` says: read from the analysis (one scan for all
 * items, cached for every level) when its line table is these lines, else
 * line by line. An item spanning a line break is held by no line.
 */
export function linesHolding(
  input: Pick<ProcessorInput, 'text' | 'analysis' | 'preserve'>,
  lines: readonly string[],
): Uint8Array {
  const holds = new Uint8Array(lines.length);
  const items = input.preserve.filter((p) => p !== '' && !/[\r\n]/.test(p));
  if (items.length === 0) return holds;
  // A CR ends a line for the line table and need not for the lines (see textLines).
  if (input.analysis.text === input.text && !input.text.includes('\r'))
    for (const i of input.analysis.linesHolding(items)) holds[i] = 1;
  else
    lines.forEach((line, i) => {
      if (items.some((p) => line.includes(p))) holds[i] = 1;
    });
  return holds;
}
