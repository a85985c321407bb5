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
