// Issue 11's extractive property over both corpora, at every level: every
// line of a line-shaped result that is not squeeze's own is an original line,
// in order, and the spans its markers name (and `result.omissions` carries)
// are exactly the original lines it does not show.
import { describe, expect, it } from 'vitest';
import { createSqueeze, type CompressResult } from '../../src/pipeline/index.js';
import { omissionsOf } from '../../src/processors/markers.js';
import { processors } from '../../src/processors/index.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';
import { everydayFiles } from '../support/everyday.js';
import { extractiveViolation, originalLines } from '../support/extractive.js';

const LEVELS = ['auto', 'lossless', 'light', 'aggressive', 'emergency'] as const;
const squeeze = createSqueeze({ store: null, retainOriginal: false, recentResults: 0 });

interface Input {
  readonly name: string;
  readonly text: string;
  readonly tool: string;
  readonly command: string | null;
}

/** The first way a result breaks the property, or null. */
function violation(input: Input, level: (typeof LEVELS)[number]): string | null {
  const call = { level, toolName: input.tool, ...(input.command ? { command: input.command } : {}) };
  const result: CompressResult = squeeze.compress(input.text, call);
  const where = `${input.name} at ${level} (${result.kind}, ${result.level})`;
  if (result.outcome === 'compressed' && (processors[result.kind].lineShaped || result.level === 'emergency')) {
    const broken = extractiveViolation(input.text, result.output);
    if (broken !== null) return `${where}: ${broken}`;
  }
  // The data is the markers' own statement, and retrieving its spans gives lines of the original.
  if (JSON.stringify(result.omissions) !== JSON.stringify(omissionsOf(result.output)))
    return `${where}: omissions differ from the markers`;
  const lines = originalLines(input.text).length;
  for (const { start, count } of result.omissions) {
    if (start < 1 || start + count - 1 > lines) return `${where}: span ${start}+${count} outside lines 1–${lines}`;
  }
  return null;
}

function check(inputs: readonly Input[]): void {
  const broken: string[] = [];
  let runs = 0;
  for (const input of inputs) {
    for (const level of LEVELS) {
      runs++;
      const found = violation(input, level);
      if (found !== null) broken.push(found);
    }
  }
  expect(runs).toBeGreaterThan(0);
  expect(broken.slice(0, 5)).toEqual([]);
}

describe('every line shown is an original line, every line not shown is named (issue 11)', () => {
  it('on the everyday corpus, at every level', () => {
    check(everydayFiles().map((f) => ({ name: f.file, text: f.text, tool: f.tool, command: f.command })));
  });

  it.skipIf(skipWithoutSharedCorpus('the extractive property on the shared corpus'))(
    'on the shared corpus, at every level',
    () => {
      check(corpusFiles().map((f) => ({ name: `${f.folder}/${f.name}`, text: f.text, tool: f.tool, command: null })));
    },
  );
});
