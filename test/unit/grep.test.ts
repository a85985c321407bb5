// The grep processor on real grep -rn, git grep -n, grep -C2, grep -n (one
// file), rg --heading and DSH grep outputs over a small project (the head of
// each fixture), with bulk matches of the same shape added by @@repeat.
import { describe, expect, it } from 'vitest';
import { createEstimator } from '../../src/engine/index.js';
import { ProcessorError } from '../../src/processors/errors.js';
import { grepProcessor } from '../../src/processors/grep/index.js';
import type { ProcessorInput } from '../../src/types.js';
import { backendName, analysisOf } from '../support/backend.js';
import { type ProcessorLevel, runProcessor, testSqueeze } from '../support/processor-run.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';

const squeeze = testSqueeze({ targetTokens: 2000, maxTokens: 4000, level: 'light' });
const estimator = createEstimator({ backend: backendName });
const all = fixtures('grep');

const run = (
  text: string,
  level: ProcessorLevel,
  budget: number,
  maxTokens: number,
  extra: Partial<ProcessorInput> = {},
) => runProcessor(grepProcessor, text, { level, budget, maxTokens, estimator, ...extra });

const MARKER = /^\[… .* …\]$/;
/** A match line in any of the fixtures' formats: `path:12:`, `12:` or DSH's `Line 12: `. */
const MATCH_LINE = /^(?:[^\s:,;]+?:\d+:|\d+:|Line \d+: )/;

/** Matches the output accounts for: shown match lines, repeats listed by location, counts in gap markers. */
function accountedMatches(output: string): number {
  let n = 0;
  for (const line of output.split('\n')) {
    const repeats = /^\[… same text at ([\d,]+) more: /.exec(line);
    const gap = /^\[… lines? [\d–, ()]+: ([\d,]+) match(?:es)?/.exec(line);
    if (repeats) n += Number(repeats[1]!.replaceAll(',', ''));
    else if (gap) n += Number(gap[1]!.replaceAll(',', ''));
    else if (!MARKER.test(line) && MATCH_LINE.test(line)) n++;
  }
  return n;
}

describe(`grep processor on real grep, rg, git grep and DSH grep output (${backendName})`, () => {
  it.each(all.map((f) => [f.name, f] as const))('%s keeps its evidence under a tight budget', (_, fixture) => {
    const result = squeeze.compress(fixture.text, { toolName: 'grep', kind: 'grep' });
    expect(result.outcome).toBe('compressed');
    expect(result.kind).toBe('grep');
    expect(result.tokensOut).toBeLessThan(result.tokensIn);
    for (const needle of fixture.keep) expect(result.output).toContain(needle);
  });

  it.each(all.map((f) => [f.name, f] as const))(
    '%s: shown lines are original lines in order, long ones cut around the match',
    (_, fixture) => {
      const out = run(fixture.text, 'light', 600, 3000).text.split('\n');
      const original = fixture.text.split('\n');
      let at = 0;
      for (const line of out) {
        if (MARKER.test(line)) continue;
        const cut = /^(.*?)\[… ([\d,]+) chars cut …\](.*?)(?:\[… [\d,]+ chars cut …\])?(?: \(line truncated\))?$/.exec(
          line,
        );
        const found = cut
          ? original.findIndex((l, i) => i >= at && l.startsWith(cut[1]!) && l.includes(cut[3]!))
          : original.indexOf(line, at);
        expect(found, line).toBeGreaterThanOrEqual(at);
        at = found + 1;
      }
    },
  );

  it.each(all.map((f) => [f.name, f] as const))(
    '%s accounts for every match (shown, listed or counted)',
    (_, fixture) => {
      const total = fixture.text.split('\n').filter((l) => MATCH_LINE.test(l)).length;
      for (const budget of [2000, 600, 150]) {
        const out = run(fixture.text, 'light', budget, 3 * budget).text;
        expect(accountedMatches(out), `budget ${budget}`).toBe(total);
      }
    },
  );

  it.each(all.map((f) => [f.name, f] as const))(
    '%s never exceeds maxTokens at any level, and shows a match',
    (_, fixture) => {
      for (const level of ['lossless', 'light', 'aggressive'] as const) {
        for (const maxTokens of [4000, 400, 120]) {
          const out = run(fixture.text, level, Math.floor(maxTokens / 3), maxTokens);
          expect(estimator.estimate(out.text), `${level} ${maxTokens}`).toBeLessThanOrEqual(maxTokens);
          expect(out.text.split('\n').some((l) => !MARKER.test(l) && MATCH_LINE.test(l))).toBe(true);
        }
      }
    },
  );

  it.each(['rg-heading', 'dsh-grep'])('%s: every shown match sits under its own file header', (name) => {
    const fixture = all.find((f) => f.name === name)!;
    const owned = (text: string) => {
      const pairs: string[] = [];
      let path = '';
      for (const line of text.split('\n')) {
        if (MARKER.test(line) || line === '' || line.startsWith('Found ')) continue;
        if (MATCH_LINE.test(line)) pairs.push(`${path}\n${line}`);
        else path = line;
      }
      return pairs;
    };
    const original = new Set(owned(fixture.text));
    for (const budget of [2000, 400, 120]) {
      const shown = owned(run(fixture.text, 'light', budget, 3 * budget).text).filter((p) => !p.includes('chars cut'));
      if (budget >= 2000) expect(shown.length).toBeGreaterThan(0);
      for (const pair of shown) expect(original.has(pair), pair).toBe(true);
    }
  });

  it("keeps DSH grep's capped header and its closing note", () => {
    const fixture = all.find((f) => f.name === 'dsh-grep')!;
    const note = '(The complete result could not be saved; narrow pattern, path, or include to see more.)';
    const capped = `${fixture.text.replace('Found 168 matches', 'Found 168 of 545 matches')}\n\n${note}`;
    expect(grepProcessor.sniff(analysisOf(capped))).toBeGreaterThan(0.9);
    const out = run(capped, 'light', 300, 900).text.split('\n');
    expect(out[0]).toBe('Found 168 of 545 matches');
    expect(out.at(-1)).toBe(note);
  });

  it('lossless keeps the text byte-identical when it fits under maxTokens', () => {
    for (const fixture of all) expect(run(fixture.text, 'lossless', 100, 100_000).text).toBe(fixture.text);
  });

  it('collapses identical match texts into one line with every location', () => {
    const fixture = all.find((f) => f.name === 'grep-rn')!;
    const text = fixture.text
      .split('\n')
      .filter((l) => !l.includes('src/gen/'))
      .join('\n');
    const out = run(text, 'light', 3000, 6000).text;
    const marker = out.split('\n').find((l) => l.includes('same text at') && l.includes('vendor/lib2/index.js:3'))!;
    expect(marker).toContain('./vendor/lib200/index.js:3');
    expect(out.split('\n').filter((l) => l.includes("throw new TypeError('expected a function')"))).toHaveLength(1);
  });

  it('cuts a minified line to a window around the match: the pattern when given, else the text short matches share', () => {
    const fixture = all.find((f) => f.name === 'grep-rn')!;
    const minified = fixture.text.split('\n').find((l) => l.startsWith('./dist/app.min.js:1:'))!;
    const short = './src/router.ts:5:  throw new Error(`no route for ${req.url}`);';
    for (const [text, extra] of [
      [minified, { pattern: 'throw new' }],
      [minified, { pattern: 'null\\)throw' }],
      [`${short}\n${minified}`, {}],
    ] as const) {
      const out = run(text, 'light', 400, 1000, extra).text.split('\n').at(-1)!;
      expect(out).toMatch(
        /^\.\/dist\/app\.min\.js:1:\[… [\d,]+ chars cut …\].*throw new Error\("bad input"\).*\[… [\d,]+ chars cut …\]$/,
      );
      expect(out.length).toBeLessThan(minified.length / 4);
    }
    // With neither, the window starts the line, and the cut is still marked.
    expect(run(minified, 'light', 100, 400).text).toMatch(
      /^\.\/dist\/app\.min\.js:1:var a=function.*\[… [\d,]+ chars cut …\]$/,
    );
  });

  it('drops context lines before match lines, and counts them', () => {
    const fixture = all.find((f) => f.name === 'grep-context')!;
    const out = run(fixture.text, 'light', 1200, 4000);
    expect(out.omitted['context lines']).toBeGreaterThan(0);
    expect(out.text).toContain(
      "src/cart/checkout.ts:6:  if (cart.items.length > 100) throw new RangeError('too many items');",
    );
  });

  it('past the budget counts the rest per file, never showing zero match texts', () => {
    const fixture = all.find((f) => f.name === 'git-grep')!;
    const out = run(fixture.text, 'aggressive', 120, 400).text;
    expect(out).toMatch(/\[… lines [\d–, ()]+: [\d,]+ matches in [\d,]+ files: .*, \+[\d,]+ more …\]/);
    expect(out.split('\n').filter((l) => MATCH_LINE.test(l)).length).toBeGreaterThan(0);
  });

  it('names hidden matches by path:line where the budget allows, a fraction of their lines', () => {
    const fixture = all.find((f) => f.name === 'git-grep')!;
    const out = run(fixture.text, 'light', 1000, 3000).text;
    expect(out).toMatch(
      /\[… lines [\d–, ()]+: [\d,]+ matches at src\/server\.ts:5, src\/gen\/entity1\.ts:7, src\/gen\/entity2\.ts:7, /,
    );
    const named = new Set(out.match(/[\w./-]+\.ts:\d+/g));
    expect(named.size).toBeGreaterThan(40);
  });

  it('over budget names every file with its matches and shows runs of matches spread across the whole output', () => {
    // 30 files of 12 matches, each text its own shape (no digits in it): too many for the budget even collapsed.
    const word = (n: number) => String.fromCharCode(97 + (n % 26)) + String.fromCharCode(97 + Math.floor(n / 26));
    const text = Array.from({ length: 30 }, (_, f) =>
      Array.from(
        { length: 12 },
        (_, j) => `src/mod${f}/part.ts:${j * 7 + 3}:  const ${word(f)}${word(j)} = require('./${word(j)}/${word(f)}');`,
      ).join('\n'),
    ).join('\n');
    const out = run(text, 'light', 1500, 4000).text;
    expect(estimator.estimate(out)).toBeLessThanOrEqual(1500);
    expect(accountedMatches(out)).toBe(360);
    const shown = out.split('\n').filter((l) => !MARKER.test(l));
    // The first and the last matches show, and matches of the middle files: not the head of the output alone.
    expect(shown[0]).toBe(text.split('\n')[0]);
    expect(shown.at(-1)).toBe(text.split('\n').at(-1));
    expect(shown.some((l) => l.startsWith('src/mod15/'))).toBe(true);
    // Shown lines come in runs: fewer markers than shown lines.
    expect(out.split('\n').filter((l) => MARKER.test(l)).length).toBeLessThan(shown.length / 4);
    // Every file is named: by a shown line or with its count in a marker.
    for (let f = 0; f < 30; f++) expect(out, `mod${f}`).toMatch(new RegExp(`src/mod${f}/part\\.ts(:\\d+:| \\d)`));
  });

  it('over budget shows a text once in the spread, and a line of each file while files are few', () => {
    // 60 files open with the same import (12 copies each), then 3 files of distinct lines.
    const same = Array.from({ length: 60 }, (_, f) =>
      Array.from({ length: 12 }, (_, j) => `src/view${f}.tsx:${j + 1}:import React from 'react';`),
    ).flat();
    const distinct = Array.from(
      { length: 120 },
      (_, i) => `lib/core${i % 3}.ts:${i + 10}:  return react(node${i}, props);`,
    );
    const text = [...same, ...distinct].join('\n');
    const out = run(text, 'light', 2500, 5000).text;
    expect(accountedMatches(out)).toBe(same.length + distinct.length);
    const shown = out.split('\n').filter((l) => !MARKER.test(l));
    expect(shown.filter((l) => l.endsWith("import React from 'react';"))).toHaveLength(1);
    for (let f = 0; f < 60; f++) expect(out, `view${f}`).toMatch(new RegExp(`src/view${f}\\.tsx(:\\d+:| \\d)`));
    // 30 files of 10 distinct matches, under half the lines that fit: each file shows one at least.
    const many = Array.from({ length: 30 }, (_, f) =>
      Array.from({ length: 10 }, (_, j) => `pkg/m${f}.go:${j * 3 + 1}:\tif err := step${f}x${j}(); err != nil {`),
    ).flat();
    const spread = run(many.join('\n'), 'light', 2500, 5000).text;
    for (let f = 0; f < 30; f++) expect(spread, `m${f}`).toMatch(new RegExp(`^pkg/m${f}\\.go:\\d+:`, 'm'));
  });

  it('over budget shows the first match of each shape (digits masked) before the runs when shapes repeat', () => {
    const fixture = all.find((f) => f.name === 'grep-rn')!;
    const head = fixture.text.split('\n').filter((l) => MATCH_LINE.test(l) && !/app\.min|src\/gen|vendor/.test(l));
    const bulk = Array.from(
      { length: 150 },
      (_, i) => `./src/gen/e${i}.ts:7:    throw new Error('entity ${i}: no id');`,
    );
    const text = [...head.slice(0, 3), ...bulk.slice(0, 70), ...head.slice(3), ...bulk.slice(70)].join('\n');
    const out = run(text, 'light', 3000, 6000).text;
    expect(accountedMatches(out)).toBe(head.length + bulk.length);
    expect(out.split('\n').filter((l) => l.startsWith('./src/gen/')).length).toBeLessThan(bulk.length);
    // One model line (12 of one shape), each line of its own shape, and the bulk's first.
    expect(out.split('\n').filter((l) => l.startsWith('./src/models/')).length).toBeLessThan(12);
    for (const line of head.filter((l) => !l.startsWith('./src/models/'))) expect(out).toContain(line);
    expect(out).toContain(bulk[0]);
  });

  it('keeps preserved lines past the sample', () => {
    const fixture = all.find((f) => f.name === 'git-grep')!;
    const out = run(fixture.text, 'aggressive', 150, 600, { preserve: ['entity 177: row without id'] }).text;
    expect(out).toContain("src/gen/entity177.ts:7:    if (!row.id) throw new Error('entity 177: row without id');");
  });

  it('refuses text without matches and sniffs grep output only', () => {
    expect(() => run('', 'light', 100, 300)).toThrow(ProcessorError);
    expect(() => run('just prose here\nand more', 'light', 100, 300)).toThrow(ProcessorError);
    for (const fixture of all)
      expect(grepProcessor.sniff(analysisOf(fixture.text)), fixture.name).toBeGreaterThan(
        fixture.name === 'grep-n-file' ? 0.5 : 0.9,
      );
    expect(grepProcessor.sniff(analysisOf('hello world\nnothing here'))).toBe(0);
    const log = Array.from(
      { length: 50 },
      (_, i) => `nova-api.log.1.2017-05-16_13:53:08 2017-05-16 00:00:${i} INFO request ${i}`,
    ).join('\n');
    expect(grepProcessor.sniff(analysisOf(log))).toBeLessThan(0.1);
    const csv = Array.from({ length: 50 }, (_, i) => `${i},cust_${i},DE,paid,2026-11-05T12:${10 + i}:00Z`).join('\n');
    expect(grepProcessor.sniff(analysisOf(csv))).toBe(0);
  });
});

describeNeverLarger(grepProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
