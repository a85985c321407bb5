// Every cut is marked and counted in one format, so a reader (or a model) can
// always tell what went and how much. Markers are ASCII apart from the ellipsis.

import { count } from '../text/strings.js';

export { count };

/** "1 line" / "2 lines" */
export function plural(n: number, unit: string, units = `${unit}s`): string {
  return `${count(n)} ${n === 1 ? unit : units}`;
}

/**
 * An omission marker: `[… 1,204 lines omitted: 1,198 INFO, 6 DEBUG …]`.
 * `breakdown` lists what kinds of lines/items went, largest first.
 */
export function omission(n: number, unit: string, breakdown: Record<string, number> = {}): string {
  const parts = Object.entries(breakdown)
    .filter(([, k]) => k > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([what, k]) => `${count(k)} ${what}`);
  const detail = parts.length > 0 ? `: ${parts.join(', ')}` : '';
  return `[… ${plural(n, unit)} omitted${detail} …]`;
}

/** A collapse of identical repeats: `[× 37] <line>`-style prefix. */
export function repeated(n: number): string {
  return `[×${count(n)}]`;
}

/**
 * An omission marker naming the original lines it covers, 1-based inclusive:
 * `[… lines 120–480 (361): 300 INFO, 61 other …]`. `from` and `to` are the
 * 0-based half-open range [from, to) of the omitted lines.
 */
export function omittedLines(from: number, to: number, breakdown: Record<string, number> = {}): string {
  const parts = Object.entries(breakdown)
    .filter(([, k]) => k > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([what, k]) => `${count(k)} ${what}`);
  const where = to - from === 1 ? `line ${count(from + 1)}` : `lines ${count(from + 1)}–${count(to)}`;
  return `[… ${where} (${count(to - from)})${parts.length > 0 ? `: ${parts.join(', ')}` : ' omitted'} …]`;
}
