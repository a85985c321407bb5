// The levels (docs/GLOSSARY.md, Level): which one applies, the budget each gives processors, and
// the order the pipeline escalates (output over maxTokens) or reverts (a
// preserved item lost) in.
import type { Level } from '../types.js';

export const LEVELS: readonly Level[] = ['lossless', 'light', 'aggressive', 'emergency'];

/**
 * The level for a context fill (fraction of the window in use): 80-90% light,
 * 90-100% aggressive, over 100% emergency. Below 80% (the specification's
 * lossless band is 70-80%, and it does not compress below 70%) and
 * when the host reports nothing: lossless, which escalates to light when its
 * output is still over targetTokens (see `ceilingFor`).
 */
export function levelForFill(fill: number | undefined): Level {
  if (fill === undefined || fill < 0.8) return 'lossless';
  if (fill < 0.9) return 'light';
  if (fill < 1) return 'aggressive';
  return 'emergency';
}

/** The processor budget at a level: targetTokens at light, half of it at aggressive. */
export function budgetFor(level: Level, targetTokens: number, maxTokens: number): number {
  switch (level) {
    case 'lossless':
      return maxTokens;
    case 'light':
      return targetTokens;
    default:
      return Math.max(1, Math.floor(targetTokens / 2));
  }
}

/** Output above this at a level sends the result to the next harsher level (see Processor.losslessUpToMax). */
export function ceilingFor(level: Level, targetTokens: number, maxTokens: number, losslessUpToMax = false): number {
  return level === 'lossless' && !losslessUpToMax ? targetTokens : maxTokens;
}

export function harsher(level: Level): Level | null {
  const i = LEVELS.indexOf(level);
  return i + 1 < LEVELS.length ? LEVELS[i + 1]! : null;
}

/** The gentler of two levels. */
export function gentlest(a: Level, b: Level): Level {
  return LEVELS.indexOf(a) <= LEVELS.indexOf(b) ? a : b;
}

export function gentler(level: Level): Level | null {
  const i = LEVELS.indexOf(level);
  return i > 0 ? LEVELS[i - 1]! : null;
}
