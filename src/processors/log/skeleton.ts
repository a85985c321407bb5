// The skeleton of test and build output: each failing test's lines (its name,
// its assertion: the classes' TestFailure flag, and jest's `●` header), the
// first source location after each, and the summary lines. Read from the
// analysis' line classes (and one prefix check on its line slices).
import type { TextAnalysis } from '../../engine/index.js';
import { LineFlag } from '../../engine/flags.js';
import type { Skeleton, SkeletonPart } from '../../types.js';

/** Jest's header of a failing test (`  ● cart › applies the discount`), which the line classes do not flag. */
const JEST_TEST = '● ';

export function logSkeleton(analysis: TextAnalysis): Skeleton {
  const { flags } = analysis.classes;
  const failing: number[] = [];
  const locations: number[] = [];
  const summaries: number[] = [];
  /** A failing test's location is still to be found. */
  let seeking = false;
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i]!;
    if (f & LineFlag.TestFailure || analysis.line(i).trimStart().startsWith(JEST_TEST)) {
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
