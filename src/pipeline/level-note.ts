// The one wording of "the level you forced was not kept", for every host: the
// CLI says it on stderr, the DSH plugin in the result itself. Each names its
// own option keys (`--level`/`--max-tokens`, `level`/`maxTokens`).
import type { CompressResult } from './result.js';

export interface OptionNames {
  readonly level: string;
  readonly maxTokens: string;
}

/** `level X not kept: why; applied Y`, or undefined when the result kept the level asked for. */
export function levelNotKeptText(
  result: Pick<CompressResult, 'level' | 'levelNotKept'>,
  names: OptionNames,
): string | undefined {
  const notKept = result.levelNotKept;
  if (!notKept) return undefined;
  const why =
    notKept.reason === 'over-max-tokens' ? `its output is over ${names.maxTokens}` : 'it would drop a preserved item';
  const applied = result.level === notKept.requested ? `${result.level}, then lines sampled to fit` : result.level;
  return `${names.level} ${notKept.requested} not kept: ${why}; applied ${applied}`;
}
