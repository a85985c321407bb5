import { describe, expect, it } from 'vitest';
import { textProcessor } from '../../src/processors/text/index.js';
import type { ProcessorInput } from '../../src/types.js';
import { backendName } from '../support/backend.js';
import { charEstimator, runProcessor } from '../support/processor-run.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { extractiveViolation } from '../support/extractive.js';
import { omissionsOf } from '../../src/processors/markers.js';
import { fixtures } from '../support/fixtures.js';

const estimator = charEstimator;
const run = (text: string, level: ProcessorInput['level'], budget = 4000, preserve: string[] = []) =>
  runProcessor(textProcessor, text, { level, budget, preserve });

const code = [
  '```ts',
  'export function store(request: Request) {',
  ...Array.from({ length: 20 }, (_, i) => `  const field${i} = request.input('field${i}'); // in order to read it`),
  '  return json(request, 201);',
  '}',
  '```',
];
const doc = [
  '# Setup',
  '',
  '',
  '',
  'It is important to note that the service must restart after every deploy.   ',
  'In order to achieve this, we run the restart hook. Done. basically, it works.',
  'I would recommend that you consider using the cached build.',
  '',
  '- First, create a new controller',
  '- Second, add the validation rules',
  '- Third, implement the service layer',
  '',
  ...Array.from({ length: 6 }, () => 'retrying connection to db:5432'),
  '',
  'This paragraph is repeated verbatim later in the document, twice over.',
  '',
  ...code,
  '',
  'timeout: 30s in order to wait',
  '',
  'This paragraph is repeated verbatim later in the document, twice over.',
].join('\n');

describe(`text processor (${backendName})`, () => {
  it('lossless shows every line as it is, collapsing duplicate lines and paragraphs into markers naming their lines', () => {
    const out = run(doc, 'lossless');
    expect(out.text).toContain('# Setup\n\n\n\nIt is important');
    expect(out.text).toContain('It is important to note that the service must restart after every deploy.   \n');
    expect(out.text).toContain('[×6 lines 13–18] retrying connection to db:5432');
    expect(out.text).toContain('[… line 50: repeat line 20 …]');
    expect(out.omitted).toEqual({ 'repeated lines': 5, 'duplicate paragraph lines': 1 });
    expect(extractiveViolation(doc, out.text)).toBeNull();
  });

  it('light rewrites no prose: filler phrases stay, a model can quote what it sees', () => {
    const out = run(doc, 'light');
    expect(out.text).toContain('In order to achieve this, we run the restart hook. Done. basically, it works.');
    expect(out.text).toContain('- First, create a new controller');
    expect(extractiveViolation(doc, out.text)).toBeNull();
  });

  it('aggressive cuts long code blocks to signatures with a marker naming the lines it cut', () => {
    const out = run(doc, 'aggressive');
    expect(out.text).toContain('export function store(request: Request) {\n[… lines 24–44 (21) omitted …]\n}\n```');
    expect(out.omitted['code lines']).toBe(21);
    expect(extractiveViolation(doc, out.text)).toBeNull();
  });

  it('over budget, keeps evidence, head and tail with exact gap markers', () => {
    const lines = Array.from({ length: 400 }, (_, i) =>
      i === 200 ? 'ERROR: disk full on /dev/sda1' : `step ${i} finished normally and nothing happened here`,
    );
    const out = run(lines.join('\n'), 'light', 300);
    expect(estimator.estimate(out.text)).toBeLessThanOrEqual(300);
    expect(out.text).toContain('ERROR: disk full on /dev/sda1');
    expect(out.text.startsWith('step 0 finished')).toBe(true);
    expect(out.text.endsWith('step 399 finished normally and nothing happened here')).toBe(true);
    const omitted = omissionsOf(out.text).reduce((a, o) => a + o.count, 0);
    expect(out.omitted.lines).toBe(omitted);
    expect(extractiveViolation(lines.join('\n'), out.text)).toBeNull();
  });

  it('says of each gap how many of its lines have a shape it shows: none new in 36 more idle threads, some where one differs', () => {
    // gdb -batch -ex run -ex 'thread apply all bt' on a program whose 40th thread dereferences NULL while 39 sleep.
    const dump = fixtures('anomalies').find((f) => f.name === 'gdb-thread-dump')!.text;
    const out = run(dump, 'light', 3000);
    const gaps = out.text.split('\n').filter((l) => l.startsWith('[… lines'));
    expect(gaps.length).toBeGreaterThan(0);
    for (const gap of gaps) expect(gap).toMatch(/: all of shapes shown …\]$/);
    // One sleeping thread in the middle waits somewhere else: its gap says so.
    const odd = dump.replace(
      /(Thread 20 \(Thread[^\n]*\n)#0 [^\n]*\n/,
      '$1#0  0x00007ffff7e9a4d2 in __GI___poll (fds=0x7fffe9db2e50, nfds=1, timeout=-1) at ../sysdeps/unix/sysv/linux/poll.c:29\n',
    );
    expect(odd).not.toBe(dump);
    const shown = run(odd, 'light', 3000).text.split('\n');
    expect(shown.some((l) => l.includes('__GI___poll'))).toBe(true);
    for (const gap of shown.filter((l) => l.startsWith('[… lines'))) expect(gap).toMatch(/: all of shapes shown …\]$/);
    expect(extractiveViolation(dump, out.text)).toBeNull();
    // Lines of shapes the output does not show are counted apart.
    const steps = Array.from({ length: 400 }, (_, i) =>
      i >= 150 && i < 250 && i % 2 === 0 ? `cache ${'abcdefghij'[i % 10]}${i} warmed` : `step ${i} finished normally`,
    );
    const mixed = run(steps.join('\n'), 'light', 300).text;
    expect(mixed).toMatch(/: [\d,]+ of shapes shown, [\d,]+ other …\]/);
  });

  it('keeps preserved strings and never returns more than it was given', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} with some ordinary words in it`);
    const out = run(lines.join('\n'), 'aggressive', 100, ['line 123 with some']);
    expect(out.text).toContain('line 123 with some ordinary words in it');
    for (const input of ['', 'x', 'a\nb', '\u0000\u0001\u0002\ufffd'.repeat(50), 'short line\nshort line']) {
      const small = run(input, 'aggressive', 100);
      expect(small.text.length).toBeLessThanOrEqual(input.length);
    }
  });
});

describe(`text counts stay exact through every stage (${backendName})`, () => {
  it('every original line is either shown, inside a [×N …] collapse, or inside a marker naming it', () => {
    const paragraphs = Array.from(
      { length: 120 },
      (_, i) =>
        `Paragraph ${i % 60} explains one step of the release process in detail.\nIt has a second line ${i % 60} as well.`,
    );
    const repeats = Array.from({ length: 5 }, () => 'polling for status...').join('\n');
    const text = [...paragraphs, repeats, 'ERROR: release failed at step 42'].join('\n\n');
    const originalLines = text.split('\n').length;
    for (const level of ['lossless', 'light', 'aggressive'] as const) {
      const out = run(text, level, 300);
      expect(extractiveViolation(text, out.text), level).toBeNull();
      // The counts agree with the spans: every line a span covers, bar the one a collapse shows, is counted once.
      const spans = omissionsOf(out.text).reduce((a, o) => a + o.count - (o.collapsed ? 1 : 0), 0);
      const omitted = Object.values(out.omitted).reduce((a, b) => a + b, 0);
      expect(omitted, level).toBe(spans);
      expect(omitted + out.text.split('\n').length - (out.text.match(/^\[…/gm) ?? []).length, level).toBe(
        originalLines,
      );
    }
    expect(run(text, 'light', 300).text).toContain('ERROR: release failed at step 42');
  });
});

describeNeverLarger(textProcessor, estimator);
