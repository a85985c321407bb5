// The skeleton of a listing: what says where things are and what is wrong.
// Problems a dependency tree flags (`invalid:`, `UNMET DEPENDENCY`,
// `extraneous`, `missing:`, `ERR!`; an unmet optional dependency is normal),
// a tree's root and top level (`├── name`), every directory header
// (`./src:`), then the flagged repeats of a problem shown once (`deduped`).
// Read from the analysis' line slices with substring and prefix checks.
import type { TextAnalysis } from '../../engine/index.js';
import type { ProcessorInput, Skeleton, SkeletonPart } from '../../types.js';
import { linesHolding } from '../fit.js';

const PROBLEMS = ['invalid:', 'UNMET DEPENDENCY', 'extraneous', 'missing:', 'ERR!'] as const;
const TOP_LEVEL = ['├──', '├─┬', '└──', '└─┬', '|--', '`--'] as const;

/** A line a dependency tree flags as a problem. */
function flagged(line: string): boolean {
  return PROBLEMS.some((word) => line.includes(word));
}

/** A problem a dependency tree flags where it first names it (not a `deduped` repeat of it). */
export function flagsProblem(line: string): boolean {
  return flagged(line) && !line.includes(' deduped');
}

/** Per line of the input, 1 where it flagsProblem: the words found by one scan of the text, not each tried on every line. */
export function problemLines(input: Pick<ProcessorInput, 'text' | 'analysis'>, lines: readonly string[]): Uint8Array {
  const problems = linesHolding(input, lines, PROBLEMS);
  for (let i = 0; i < lines.length; i++) if (problems[i] && lines[i]!.includes(' deduped')) problems[i] = 0;
  return problems;
}

export function listingSkeleton(analysis: TextAnalysis): Skeleton {
  const problems: number[] = [];
  const repeats: number[] = [];
  const headers: number[] = [];
  const top: number[] = [];
  for (let i = 0; i < analysis.lines.count; i++) {
    const line = analysis.line(i);
    if (flagged(line)) (flagsProblem(line) ? problems : repeats).push(i);
    else if (line.endsWith(':') && line.length > 1 && !line.includes(' ')) headers.push(i);
    else if (TOP_LEVEL.some((branch) => line.startsWith(branch))) top.push(i);
  }
  // A tree's root is its first line.
  if (top.length > 0 && top[0] !== 0 && !problems.includes(0)) top.unshift(0);
  const parts: SkeletonPart[] = [
    { name: 'flagged line', lines: problems },
    { name: 'top-level line', lines: top },
    { name: 'directory header', lines: headers },
    { name: 'flagged repeat', lines: repeats },
  ];
  return parts.filter((part) => part.lines.length > 0);
}
