// Budget fitting shared by the structured line processors (grep, listing,
// table): each renders its text at a detail setting, and these helpers pick
// the most detailed setting whose output fits.
import type { TextAnalysis } from '../engine/index.js';
import type { ProcessorInput } from '../types.js';

/**
 * Tokens the output should fit in: the level's budget, never above maxTokens.
 * Lossless aims at maxTokens alone (it shortens only what would break the ceiling).
 */
export function targetOf(input: ProcessorInput): number {
  return input.level === 'lossless' ? input.maxTokens : Math.min(input.budget, input.maxTokens);
}

/**
 * The largest n in [low, high] for which `fits(n)` holds, assuming fits is
 * monotone (more detail never costs less); `low` when none does. With a
 * `resolution` above 1 the search stops within that distance of the answer
 * (fewer tries when each try is expensive).
 */
export function largestFitting(low: number, high: number, fits: (n: number) => boolean, resolution = 1): number {
  if (high <= low || fits(high)) return Math.max(low, high);
  let ok = low;
  let bad = high;
  while (bad - ok > resolution) {
    const mid = Math.floor((ok + bad) / 2);
    if (fits(mid)) ok = mid;
    else bad = mid;
  }
  return ok;
}

/**
 * The lines of a text as the pipeline and retrieval number them: a line ends
 * at LF, CRLF or a lone CR, and a final break does not start an empty last line.
 */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n?|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const textLinesCache = new WeakMap<TextAnalysis, readonly string[]>();

/**
 * The input text's lines (splitLines), made once per analysed text for every
 * level and stage that reads them: sliced by the line table, which ends lines
 * where splitLines does (LF, CRLF, a lone CR; no empty line after a final
 * break) but for the empty text, which has no line there and one here.
 */
export function textLines(input: Pick<ProcessorInput, 'text' | 'analysis'>): readonly string[] {
  const { text, analysis } = input;
  if (analysis.text !== text) return splitLines(text);
  let lines = textLinesCache.get(analysis);
  if (!lines) {
    const { count, start, end } = analysis.lines;
    lines = count === 0 ? [''] : Array.from({ length: count }, (_, i) => text.slice(start[i], end[i]));
    textLinesCache.set(analysis, lines);
  }
  return lines;
}

/**
 * Per line of the input (its `lines`), 1 where it holds any of `items`, as
 * `line.includes(item)` says: read from the analysis (one scan for all items,
 * cached for every level) when its line table is these lines, else line by
 * line. An item spanning a line break is held by no line.
 */
export function linesHolding(
  input: Pick<ProcessorInput, 'text' | 'analysis'>,
  lines: readonly string[],
  items: readonly string[],
): Uint8Array {
  const holds = new Uint8Array(lines.length);
  const oneLine = items.filter((p) => p !== '' && !/[\r\n]/.test(p));
  if (oneLine.length === 0) return holds;
  if (analysedLines(input, lines)) for (const i of input.analysis.linesHolding(oneLine)) holds[i] = 1;
  else
    lines.forEach((line, i) => {
      if (oneLine.some((p) => line.includes(p))) holds[i] = 1;
    });
  return holds;
}

/**
 * Whether `lines` (split from the input's text) are its analysis' line table,
 * line for line, so that per-line costs and line indices of the analysis
 * apply to them: the same count and lengths (a processor's own split or trim,
 * a CR dropped from a line end, breaks that). One pass over the lines, not the text.
 */
export function analysedLines(input: Pick<ProcessorInput, 'text' | 'analysis'>, lines: readonly string[]): boolean {
  const { analysis } = input;
  if (analysis.text !== input.text || analysis.lines.count !== lines.length) return false;
  const { start, end } = analysis.lines;
  return lines.every((line, i) => line.length === end[i]! - start[i]!);
}

/** Renders kept by `renderOnce`: enough for a search's last tries, few enough for huge texts. */
const KEPT_RENDERS = 8;

/**
 * `render` with its latest results kept by detail setting: a budget search
 * tries settings, then renders the winner, which it has rendered already.
 * `clear` forgets them (when what `render` reads changes).
 */
export function renderOnce<D, R>(render: (detail: D) => R): ((detail: D) => R) & { clear(): void } {
  const kept = new Map<string, R>();
  const once = (detail: D): R => {
    const key = JSON.stringify(detail, (_k, v: unknown) =>
      typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
    );
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const result = render(detail);
    kept.set(key, result);
    if (kept.size > KEPT_RENDERS) kept.delete(kept.keys().next().value!);
    return result;
  };
  return Object.assign(once, { clear: () => kept.clear() });
}
