// Preserved items (docs/GLOSSARY.md), detected in tool output.
import { describe, expect, it } from 'vitest';
import { createEstimator, TextAnalysis } from '../../src/engine/index.js';
import { CUED, detectPreserved, missingItems, PRESERVE_RULES } from '../../src/pipeline/preserve.js';
import { preservedLines } from '../../src/processors/log/priority.js';
import { backendName, testBackend } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';
import { itCuesEveryMatch } from '../support/cue-superset.js';

const estimator = createEstimator({ backend: backendName });
const analysed = (text: string) => new TextAnalysis(text, testBackend());

describe(`preserved items (${backendName})`, () => {
  it('finds each kind of preserved item, as whole lines, in text order', () => {
    const text = [
      'building...',
      'lodash  <4.17.21  Severity: high  Prototype Pollution',
      'BREAKING CHANGE: `connect()` now returns a promise; migrate by awaiting it',
      '  - [ ] rotate the signing key (owner: @mira, due Friday)',
      'TODO(ops): drop the legacy endpoint',
      'The security team decided that tokens must never be logged.',
      'Decision: keep Postgres 15 until Q3',
      'I prefer tabs over spaces in generated files',
      '   = help: consider cloning the value',
      'hint: run with --verbose',
      'done',
    ].join('\n');
    const { items } = detectPreserved(analysed(text), true, estimator, 10_000);
    expect(items.map((i) => i.kind)).toEqual([
      'vulnerability',
      'breaking',
      'action',
      'action',
      'security',
      'decision',
      'preference',
      'error-fix',
      'error-fix',
    ]);
    expect(items[2]!.text).toBe('- [ ] rotate the signing key (owner: @mira, due Friday)');
  });

  it('finds vulnerability ids anywhere, once, and not again inside a preserved line', () => {
    const json = '{"advisories":[{"id":"GHSA-8cf7-32gw-wr33"},{"cve":"CVE-2024-12345"},{"cve":"CVE-2024-12345"}]}';
    expect(detectPreserved(analysed(json), false, estimator, 1000).items.map((i) => i.text)).toEqual([
      'GHSA-8cf7-32gw-wr33',
      'CVE-2024-12345',
    ]);
    const log = 'vulnerability CVE-2024-12345 in openssl at src/tls.c:88\nok';
    expect(detectPreserved(analysed(log), true, estimator, 1000).items.map((i) => i.text)).toEqual([
      'vulnerability CVE-2024-12345 in openssl at src/tls.c:88',
    ]);
  });

  it('caps the items at the token budget and counts what it dropped', () => {
    const text = Array.from({ length: 500 }, (_, i) => `TODO: item number ${i} with some words`).join('\n');
    const { items, dropped } = detectPreserved(analysed(text), true, estimator, 200);
    expect(items.length).toBeGreaterThan(0);
    expect(items.length + dropped).toBe(500);
  });

  it('reports the items an output lost', () => {
    const items = [
      { kind: 'action', text: 'TODO: a', line: 1 },
      { kind: 'decision', text: 'Decision: b', line: 0 },
    ] as const;
    expect(missingItems('x\nTODO: a\ny', items)).toEqual([items[1]]);
  });

  it('stays linear on long runs of blank lines', () => {
    const text = `${'\n'.repeat(200_000)}TODO: the only item`;
    expect(detectPreserved(analysed(text), true, estimator, 1000).items.map((i) => i.text)).toEqual([
      'TODO: the only item',
    ]);
  });
});

describe(`lines of the preserved items (${backendName})`, () => {
  const logs = [...fixtures('logs'), ...fixtures('diff')];
  it.each(logs.map((f) => [f.name, f.text] as const))(
    '%s: exactly the lines holding an item, items inside other items and items with regex characters included',
    (_, text) => {
      const analysis = new TextAnalysis(text, testBackend());
      const { items } = detectPreserved(analysed(text), true, estimator, 10_000);
      // Items as found, a part of one (a shorter item inside a longer one's line), and a literal full of regex syntax.
      const preserve = [...items.map((i) => i.text), ...items.slice(0, 3).map((i) => i.text.slice(2, 12)), '(a|b)*[x]'];
      const expected = new Set<number>();
      for (let i = 0; i < analysis.lines.count; i++)
        if (preserve.some((p) => p !== '' && analysis.line(i).includes(p))) expected.add(i);
      expect([...preservedLines(analysis, preserve)].sort((a, b) => a - b)).toEqual([...expected]);
    },
  );
});

/** Lines a preserved-item rule matches that the classify kernel did not cue (the rules run on cued lines only). */
function uncued(text: string): { matched: number; missed: string[] } {
  const analysis = new TextAnalysis(text, testBackend());
  const flags = analysis.classes.flags;
  let matched = 0;
  const missed: string[] = [];
  for (let i = 0; i < analysis.lines.count; i++) {
    const line = analysis.line(i);
    if (!PRESERVE_RULES.some((rule) => line.search(rule) >= 0)) continue;
    matched++;
    if ((flags[i]! & CUED) === 0) missed.push(line);
  }
  return { matched, missed };
}

describe(`the preserve cue (${backendName})`, () => {
  itCuesEveryMatch('preserve cue', uncued);

  it("cues a rule's words inside any line, and a `[ ]` box", () => {
    const lines = ['x go-1 GO-2024-1234', '- [ ] ship it', 'Did you mean: x?', 'see ghsa-aaaa', 'plain words only'];
    const flags = new TextAnalysis(lines.join('\n'), testBackend()).classes.flags;
    expect(lines.map((_, i) => (flags[i]! & CUED) !== 0)).toEqual([true, true, true, true, false]);
  });
});
