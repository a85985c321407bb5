// Checks every outline-style output shares: each line that is not a squeeze
// marker is an original line, in original order, and the markers name exactly
// the lines they stand for (shown + covered = all).

/** A squeeze marker line: `[… lines 4–9 (6): …]`, `[lines 4–9: …]`, `[line 3 cut …]`, `[… stats of …]`. */
export const MARKER = /^\[(?:… )?(?:lines? \d|stats of )/;

/** The first non-marker line of `output` that is not an original line after its predecessor, or null. */
export function firstInventedLine(output: string, original: string): string | null {
  const lines = original.split('\n');
  let at = 0;
  for (const line of output.split('\n')) {
    if (MARKER.test(line)) continue;
    const found = lines.indexOf(line, at);
    if (found === -1) return line;
    at = found + 1;
  }
  return null;
}

/** Lines an output stands for: shown lines plus the ranges its markers name. */
export function accountedLines(output: string): number {
  let n = 0;
  for (const line of output.split('\n')) {
    const range = /^\[(?:… )?lines ([\d,]+)–([\d,]+)/.exec(line);
    if (range) n += Number(range[2]!.replaceAll(',', '')) - Number(range[1]!.replaceAll(',', '')) + 1;
    else if (!/^\[… stats of /.test(line)) n++;
  }
  return n;
}
