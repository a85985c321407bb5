// The context engine's pure parts: which results a rewrite takes (oldest
// first, outside the protected window) and the digest a result becomes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digest } from '../../src/adapters/dsh/context-engine/digest.js';
import { selectBatch } from '../../src/adapters/dsh/context-engine/window.js';
import { createEstimator } from '../../src/engine/index.js';

const estimator = createEstimator();
const corpus = (file: string) => readFileSync(join(import.meta.dirname, '../corpus/everyday', file), 'utf8');
const nodes = (turns: number[], replaceable = turns.map(() => true)) => turns.map((turn, seq) => ({ seq, turn, replaceable: replaceable[seq]! }));
const window = { protectFirstTurns: 0, protectLastTurns: 0, protectRecentResults: 1 };

describe('selectBatch', () => {
  it('takes every replaceable result but the newest, oldest first, in a single-turn session', () => {
    expect(selectBatch(nodes([1, 1, 1, 1, 1]), 1, window).map((n) => n.seq)).toEqual([0, 1, 2, 3]);
  });

  it('protects the last N results, the first and last turns, and skips what is not replaceable', () => {
    const all = nodes([1, 2, 2, 3, 3, 4, 5, 5], [true, true, false, true, true, true, true, true]);
    expect(selectBatch(all, 5, { ...window, protectRecentResults: 3 }).map((n) => n.seq)).toEqual([0, 1, 3, 4]);
    expect(selectBatch(all, 5, { ...window, protectFirstTurns: 2 }).map((n) => n.seq)).toEqual([3, 4, 5, 6]);
    expect(selectBatch(all, 5, { ...window, protectLastTurns: 2 }).map((n) => n.seq)).toEqual([0, 1, 3, 4]);
    expect(selectBatch(all, 5, { ...window, protectRecentResults: 8 })).toEqual([]);
  });
});

describe('digest', () => {
  const input = (file: string, toolName: string, type: 'terminal' | 'file' | 'grep') => ({ text: corpus(file), type, toolName, previewMaxChars: 240, estimator });

  it("keeps a test run's verdict lines verbatim, in order, with markers naming the lines left out", () => {
    const text = corpus('build/pytest.txt');
    const out = digest(input('build/pytest.txt', 'bash', 'terminal'))!;
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^\[terminal: exit 1 \| \d+ lines \| /);
    for (const line of ["E   KeyError: 'pear'", 'E       AssertionError: assert 0 == 1', '[exit code: 1]']) expect(lines).toContain(line);
    expect(out).toMatch(/FAILED tests\/test_stock.py::test_value_of_unknown_price/);
    // every line but the preview and the markers is an original line, in the original's order
    const original = text.split('\n');
    let at = 0;
    for (const line of lines.slice(1)) {
      if (/^\[… lines? [\d,–]+ \(\d[\d,]*\) omitted …\]$/.test(line)) continue;
      const found = original.indexOf(line, at);
      expect(found, line).toBeGreaterThanOrEqual(at);
      at = found + 1;
    }
    expect(estimator.estimate(out)).toBeLessThan(estimator.estimate(text) / 2);
  });

  it('markers cover exactly the lines not shown', () => {
    const text = corpus('build/tsc-pretty.txt');
    const out = digest(input('build/tsc-pretty.txt', 'bash', 'terminal'))!;
    let shown = 0;
    let omitted = 0;
    for (const line of out.split('\n').slice(1)) {
      const marker = /^\[… lines? [\d,–]+ \((\d[\d,]*)\) omitted …\]$/.exec(line);
      if (marker) omitted += Number(marker[1]!.replace(/,/g, ''));
      else shown++;
    }
    expect(shown + omitted).toBe(text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
  });

  it('a source read or a grep has no verdict: its assert and Error lines are content, left to the markers', () => {
    const read = digest(input('code/read-string-ts.txt', 'read', 'file'))!;
    expect(read.split('\n').filter((l) => !l.startsWith('['))).toEqual([]);
    const grep = digest(input('grep/dsh-grep-throw.txt', 'grep', 'grep'))!;
    expect(grep).not.toMatch(/throw new/);
  });

  it('says nothing for an empty result', () => {
    expect(digest({ ...input('build/pytest.txt', 'bash', 'terminal'), text: ' \n' })).toBeUndefined();
  });
});
