// The skeleton of test and build output: each failing test's lines (its name,
// its assertion: the classes' TestFailure flag), the first source location
// after each, and the summary lines. Read from the analysis' line classes.
import type { TextAnalysis } from '../../engine/index.js';
import { LineFlag } from '../../engine/flags.js';
import type { Skeleton, SkeletonPart } from '../../types.js';

export function logSkeleton(analysis: TextAnalysis): Skeleton {
  const { flags } = analysis.classes;
  const failing: number[] = [];
  const locations: number[] = [];
  const summaries: number[] = [];
  /** A failing test's location is still to be found. */
  let seeking = false;
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i]!;
    if (f & LineFlag.TestFailure) {
      failing.push(i);
      seeking = true;
    } else if (seeking && f & LineFlag.Location) {
      locations.push(i);
      seeking = false;
    } else if (f & LineFlag.Summary) summaries.push(i);
  }
  const parts: SkeletonPart[] = [
    { name: 'failing test line', lines: failing },
    { name: 'failure location', lines: locations },
    { name: 'summary line', lines: summaries },
  ];
  return parts.filter((part) => part.lines.length > 0);
}
