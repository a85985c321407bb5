// Structure first over the ceiling: a diff, a `git show` or a `git log -p` cut
// to a small maxTokens still shows every commit line and every file header
// (the processor's skeleton), and the markers count the skeleton lines they hold.
import { describe, expect, it } from 'vitest';
import { createEstimator } from '../../src/engine/index.js';
import { createSqueeze } from '../../src/pipeline/index.js';
import { TextAnalysis } from '../../src/engine/index.js';
import { grepProcessor } from '../../src/processors/grep/index.js';
import { logProcessor } from '../../src/processors/log/index.js';
import { cutOrder, originalLinesSource, sampleToFit } from '../../src/pipeline/ceiling.js';
import { backendName, testBackend } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';

const estimator = createEstimator();
/** The structure lines of a diff or a history, by this test's own rule. */
const STRUCTURE = /^(?:commit [0-9a-f]{40}|diff --git |@@ )/;
/** Files whose hunks a diff summarises whole (as the fixture script labels them). */
const GENERATED = /package-lock\.json|\.min\.js|\.snap\b/;

/** Structure lines, without the hunk headers of generated files. */
function structureOf(text: string): string[] {
  let generated = false;
  return text.split('\n').filter((line) => {
    if (line.startsWith('diff --git ')) generated = GENERATED.test(line);
    return STRUCTURE.test(line) && !(generated && line.startsWith('@@ '));
  });
}
/** A failing test's own line in jest, TAP, pytest and go test output, by this test's rule. */
const FAILING_TEST = /^\s*(?:● |not ok |FAILED |--- FAIL: )/;
/** Tokens per structure line a marker between two of them costs, about. */
const MARKER_ROOM = 40;

const histories = [...fixtures('diff'), ...fixtures('gitlog')]
  .map((fixture) => ({ ...fixture, structure: structureOf(fixture.text) }))
  .filter((fixture) => fixture.structure.filter((l) => l.startsWith('diff --git ')).length >= 6);

describe(`skeletons over the ceiling (${backendName})`, () => {
  it('has histories with many files or commits to cut', () => {
    expect(histories.map((h) => h.name)).toEqual(expect.arrayContaining(['project-diff', 'project-log-patch']));
  });

  it.each(histories.map((h) => [h.name, h] as const))(
    '%s: every commit line, file header and hunk header survives a maxTokens a fraction of the text',
    (_, history) => {
      const skeleton = estimator.estimate(history.structure.join('\n'));
      const maxTokens = skeleton + MARKER_ROOM * history.structure.length + 200;
      const tokens = estimator.estimate(history.text);
      expect(maxTokens, 'the ceiling must cut').toBeLessThan(tokens / 2);
      const squeeze = createSqueeze({ backend: backendName, minTokens: 1, targetTokens: maxTokens, maxTokens });
      const result = squeeze.compress(history.text, { toolName: 'bash', command: 'git log -p' });
      expect(result.outcome).toBe('compressed');
      expect(result.tokensOut).toBeLessThanOrEqual(maxTokens);
      const shown = new Set(result.output.split('\n'));
      for (const line of history.structure) expect(shown.has(line), line).toBe(true);
    },
  );

  it('cuts a skeleton over the ceiling by position, and its markers count what they hold', () => {
    const history = histories.find((h) => h.name === 'project-log-patch')!;
    const headers = history.structure.filter((l) => l.startsWith('diff --git '));
    const commits = history.structure.filter((l) => l.startsWith('commit '));
    // Each commit's subject: its message's first line.
    const lines = history.text.split('\n');
    const subjects = commits.map((c) => lines.slice(lines.indexOf(c)).find((l) => l.startsWith('    '))!);
    // Room for the commit lines, their subjects and half the file headers.
    const maxTokens =
      estimator.estimate([...commits, ...subjects].join('\n')) +
      2 * MARKER_ROOM * commits.length +
      Math.floor(estimator.estimate(headers.join('\n')) / 2);
    const squeeze = createSqueeze({ backend: backendName, minTokens: 1, targetTokens: maxTokens, maxTokens });
    const result = squeeze.compress(history.text, { toolName: 'bash', command: 'git log -p' });
    expect(result.tokensOut).toBeLessThanOrEqual(maxTokens);
    // Which original lines are shown: those no omission names (retrieval numbering, 1-based).
    const hidden = new Uint8Array(lines.length);
    for (const o of result.omissions) hidden.fill(1, o.start - 1, o.start - 1 + o.count);
    const at = (pick: (l: string) => boolean) => lines.flatMap((l, i) => (pick(l) ? [i] : []));
    // Every commit line and subject first; then the file headers by position, the first ones shown.
    for (const i of at((l) => commits.includes(l) || subjects.includes(l))) expect(hidden[i], lines[i]).toBe(0);
    const headerLines = at((l) => l.startsWith('diff --git '));
    const shown = headerLines.filter((i) => !hidden[i]);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(headerLines.length);
    expect(shown).toEqual(headerLines.slice(0, shown.length));
    const counted = [...result.output.matchAll(/(\d+) file headers?\b/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(counted).toBe(headerLines.length - shown.length);
  });

  it('npm ls over a tight ceiling keeps every problem it flags', () => {
    const tree = fixtures('listing').find((f) => f.name === 'npm-ls-problems')!;
    const maxTokens = 1000;
    expect(estimator.estimate(tree.text)).toBeGreaterThan(10 * maxTokens);
    const squeeze = createSqueeze({ backend: backendName, minTokens: 1, targetTokens: maxTokens, maxTokens });
    const result = squeeze.compress(tree.text, { toolName: 'bash', command: 'npm ls --all' });
    expect(result.kind).toBe('listing');
    expect(result.tokensOut).toBeLessThanOrEqual(maxTokens);
    const shown = result.output.split('\n');
    for (const line of tree.keep) expect(shown).toContain(line);
  });

  it.each(['rg-heading', 'dsh-grep', 'grep-rn'])(
    '%s: a grep cut by lines keeps where its matches are (file headers, or each file named by its first match)',
    (name) => {
      const grep = fixtures('grep').find((f) => f.name === name)!;
      const analysis = new TextAnalysis(grep.text, testBackend());
      const parts = grepProcessor.skeleton!(analysis);
      const lines = grep.text.split('\n');
      // Each file once: by its own header line, or by the first match line naming it.
      const files = parts.find((p) => p.name === 'file header' || p.name === 'first match line')!;
      const named = files.lines.map((i) => (files.name === 'file header' ? lines[i]! : lines[i]!.split(':')[0]!));
      expect(new Set(named).size).toBe(named.length);
      expect(named.length).toBeGreaterThan(20);
      if (name === 'dsh-grep') expect(parts[0]).toEqual({ name: 'match count line', lines: [0] });
      const maxTokens =
        estimator.estimate(
          files.lines
            .slice(0, 10)
            .map((i) => lines[i])
            .join('\n'),
        ) + 200;
      const cut = sampleToFit(
        originalLinesSource(analysis, [], 'lines', cutOrder(grepProcessor, analysis)),
        estimator,
        maxTokens,
      )!;
      expect(estimator.estimate(cut.text)).toBeLessThanOrEqual(maxTokens);
      // The first files stay in order; the ones cut are counted by the markers, by part.
      const shown = cut.text.split('\n');
      for (const i of files.lines.slice(0, 5)) expect(shown).toContain(lines[i]);
      expect(cut.text).toMatch(new RegExp(`\\d+ ${files.name}s?\\b`));
    },
  );

  it.each(['jest', 'tap', 'pytest', 'go-test'])(
    '%s: the log skeleton leads with every failing test, whose name survives a tight ceiling',
    (name) => {
      const log = fixtures('logs').find((f) => f.name === name)!;
      const failing = log.text.split('\n').filter((l) => FAILING_TEST.test(l));
      expect(failing.length).toBeGreaterThan(0);
      const analysis = new TextAnalysis(log.text, testBackend());
      const [first] = logProcessor.skeleton!(analysis);
      const named = new Set(first!.lines.map((i) => analysis.line(i)));
      expect(first!.name).toBe('failing test line');
      for (const line of failing) expect(named.has(line), line).toBe(true);
      const maxTokens = 300;
      const squeeze = createSqueeze({ backend: backendName, minTokens: 1, targetTokens: maxTokens, maxTokens });
      const result = squeeze.compress(log.text, { toolName: 'bash' });
      expect(result.tokensOut).toBeLessThanOrEqual(maxTokens);
      // Each failing test's name survives (`not ok 301 - name`, `FAILED path::name - why`, `--- FAIL: Name (0.01s)`).
      for (const line of failing) {
        const test = line
          .replace(FAILING_TEST, '')
          .replace(/^\d+ - /, '')
          .split(/ - | \(/)[0]!;
        expect(result.output, line).toContain(test);
      }
    },
  );
});
