// Preserved strings (security findings, action items... found by the pipeline)
// must reach the output verbatim. A processor that re-renders its input can
// lose one (entities decoded, JSON re-quoted); those are appended as notes in
// squeeze's own syntax (docs/MARKERS.md), so a line-shaped output still holds
// only original lines besides its markers.
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
 * Per line of `text` (its `lines`, split at line breaks), 1 where it holds a
 * preserved string: one search of the text per item, not every item tried on
 * every line. A text with CRs is read line by line (its breaks are not all one
 * character wide).
 */
export function linesHolding(text: string, lines: readonly string[], preserve: readonly string[]): Uint8Array {
  const holds = new Uint8Array(lines.length);
  const items = [...new Set(preserve)].filter((p) => p !== '' && !/[\r\n]/.test(p));
  if (items.length === 0) return holds;
  if (text.includes('\r')) {
    lines.forEach((line, i) => {
      if (items.some((p) => line.includes(p))) holds[i] = 1;
    });
    return holds;
  }
  // Lines are joined by single LFs here: line i starts where the ones before it and their breaks end.
  const starts = new Float64Array(lines.length + 1);
  for (let i = 0; i < lines.length; i++) starts[i + 1] = starts[i]! + lines[i]!.length + 1;
  for (const item of items) {
    let line = 0;
    for (let at = text.indexOf(item); at >= 0; at = text.indexOf(item, starts[line + 1])) {
      while (starts[line + 1]! <= at) line++;
      holds[line] = 1;
    }
  }
  return holds;
}
