// The verdict gate: every runner's and compiler's verdict facts are read from
// the raw output (fixtures in test/fixtures/verdicts name the lines expected),
// and every demanded fact line is in the output at every level, also when the
// output is cut to a small maxTokens; the notice carries the verdict line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compress, createSqueeze } from '../../src/pipeline/index.js';
import { afterTag, bodyOf, MAX_VERDICT_CHARS, readVerdict, VERDICT_CUED } from '../../src/pipeline/verdict/extract.js';
import { RULES } from '../../src/pipeline/verdict/rules.js';
import { retrievalNotice } from '../../src/store/notice.js';
import { analysisOf, backendName } from '../support/backend.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';
import { everydayFiles } from '../support/everyday.js';
import { fixtures } from '../support/fixtures.js';
import { itCuesEveryMatch } from '../support/cue-superset.js';

const backend = backendName;
const LEVELS = ['lossless', 'light', 'aggressive'] as const;
const verdicts = fixtures('verdicts');
const verdictLine = (name: string): string =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/verdicts', `${name}.verdict.json`), 'utf8')).line;

/** Every fact the result demanded is in its output (and the result says so). */
function expectFactsInline(text: string, options: Parameters<typeof compress>[1]): ReturnType<typeof compress> {
  const result = compress(text, { backend, minTokens: 1, ...options });
  const demanded = result.verdict!.facts.filter((fact) => fact.demanded);
  expect(demanded.length).toBeGreaterThan(0);
  for (const fact of demanded) {
    expect(result.output, fact.keep).toContain(fact.keep);
    expect(fact.inline).toBe(true);
  }
  return result;
}

describe(`verdict facts per runner and compiler (${backend})`, () => {
  it.each(verdicts.map((f) => [f.name, f] as const))('%s: the fact lines and the verdict line', (name, fixture) => {
    const verdict = readVerdict(fixture.text);
    expect(verdict?.facts.map((fact) => fact.keep)).toEqual(fixture.keep);
    expect(verdict?.line).toBe(verdictLine(name));
    for (const fact of verdict!.facts) {
      const line = fixture.text.split(/\r\n|\r|\n/)[fact.line - 1];
      expect(line?.trimEnd()).toBe(fact.text);
    }
  });

  it('reads nothing from output that states no verdict', () => {
    expect(readVerdict('')).toBeNull();
    expect(readVerdict('added 7 packages in 1ms\n')).toBeNull();
    expect(readVerdict('2026-11-30 10:00:01 INFO worker 1: tick 1\n'.repeat(100))).toBeNull();
    // Lines too plain to name a tool count only beside a line of that tool.
    expect(readVerdict('SET key value\nOK\nFAIL\n2 errors\n')).toBeNull();
    expect(readVerdict('Ran 3 tests in 0.01s\n\nOK\n')?.line).toBe('verdict: 3 tests passed, none failed');
  });

  it.each([
    ['pytest', '==== 298 passed, 2 skipped in 12.31s ====\n', 'verdict: 298 tests passed, none failed, 2 skipped'],
    [
      'cargo',
      'test result: ok. 40 passed; 0 failed; 3 ignored; 0 measured; 0 filtered out; finished in 0.01s\n',
      'verdict: 40 tests passed, none failed, 3 skipped',
    ],
    ['vitest', '      Tests  2316 passed | 3 skipped (2319)\n', 'verdict: 2,316 tests passed, none failed, 3 skipped'],
    [
      'maven',
      '[INFO] Tests run: 1209, Failures: 0, Errors: 0, Skipped: 3\n[INFO] BUILD SUCCESS\n',
      'verdict: 1,206 tests passed, none failed, 3 skipped; maven: BUILD SUCCESS',
    ],
    [
      'jest',
      'Tests:       2 skipped, 1315 passed, 1317 total\n',
      'verdict: 1,315 tests passed, none failed, 2 skipped',
    ],
    ['unittest', 'Ran 12 tests in 0.01s\n\nOK (skipped=1)\n', 'verdict: 11 tests passed, none failed, 1 skipped'],
    [
      'vitest, failures',
      '      Tests  2 failed | 2316 passed | 1 skipped (2319)\n',
      'verdict: 2 of 2,319 tests failed, 1 skipped',
    ],
  ])('%s: skipped tests are not counted as passed; counts are written as markers write them', (_runner, text, line) => {
    expect(readVerdict(text)?.line).toBe(line);
  });

  it('keeps the verdict line short: parts past MAX_VERDICT_CHARS become `; …`', () => {
    const text = Array.from(
      { length: 40 },
      (_, i) => `src/m${i}/file${i}.c:${i + 1}:1: error: x\nmake[${i}]: *** [Makefile:${i}: m${i}.o] Error ${i}`,
    ).join('\n');
    const tools = Array.from({ length: 40 }, (_, i) => `src/t${i}.ts(${i + 1},1): error TS1: y\n${i}.go:1:1: z`).join(
      '\n',
    );
    const ends = [
      '[INFO] BUILD FAILURE',
      'BUILD FAILED in 3s',
      'ninja: build stopped: subcommand failed.',
      'error Command failed with exit code 3.',
    ];
    const { line } = readVerdict(`${text}\n${tools}\n${ends.join('\n')}\n[exit code: 2]\nnpm ERR! code E1\n`)!;
    expect(line.length).toBeLessThanOrEqual(MAX_VERDICT_CHARS + 3);
    expect(line).toMatch(/^verdict: gcc\/clang: 40 errors, first at src\/m0\/file0\.c:1:1; .*; …$/);
  });

  it('keeps the first exit lines of a tool and its latest', () => {
    const text = Array.from({ length: 40 }, (_, i) => `make[${i}]: *** [Makefile:${i}: m${i}.o] Error ${i}`).join('\n');
    const verdict = readVerdict(text)!;
    expect(verdict.facts.map((f) => f.line)).toEqual([1, 2, 3, 40]);
    expect(verdict.exits).toEqual([{ tool: 'make', status: 'Error 39' }]);
  });

  it('names at most 20 failing tests; the totals count the rest', () => {
    const text = `${Array.from({ length: 50 }, (_, i) => `--- FAIL: TestCase${i} (0.00s)`).join('\n')}\nFAIL\tx/y\t0.1s\n`;
    const verdict = readVerdict(text)!;
    expect(verdict.facts.filter((f) => f.kind === 'failing-test')).toHaveLength(20);
    expect(verdict.unnamedFailures).toBe(30);
    expect(verdict.tests).toEqual({ failed: 50 });
  });
});

describe(`the verdict gate at every level (${backend})`, () => {
  const cases = verdicts.flatMap((f) => LEVELS.map((level) => [f.name, level, f] as const));

  it.each(cases)('%s at %s: every fact inline, the verdict line in the notice', (name, level, fixture) => {
    const result = expectFactsInline(fixture.text, { level });
    expect(result.verdict?.undemanded).toBe(0);
    if (result.outcome === 'compressed') expect(result.output).toContain(`[${verdictLine(name)}]`);
    else expect(result.output).toBe(fixture.text);
  });

  it.each(cases)(
    '%s at %s cut to maxTokens 400: every demanded fact inline, within the ceiling',
    (_, level, fixture) => {
      const result = expectFactsInline(fixture.text, { level, maxTokens: 400, targetTokens: 200 });
      if (result.outcome === 'compressed') expect(result.tokensOut).toBeLessThanOrEqual(400);
    },
  );

  const logs = fixtures('logs');

  it('a harsher level that drops a fact line gives way to the gentler one', () => {
    // At maxTokens 400 lossless is over targetTokens; light cuts a demanded line of this rustc output.
    const { text } = logs.find((f) => f.name === 'rustc-diagnostics')!;
    const result = expectFactsInline(text, { level: 'lossless', maxTokens: 400, targetTokens: 200 });
    expect(result).toMatchObject({ outcome: 'compressed', level: 'lossless', verdict: { gate: 'gentler' } });
    expect(result.tokensOut).toBeLessThanOrEqual(400);
  });

  it('an output that loses a fact at every level is replaced by a cut of the original that keeps them', () => {
    // make printed it, so it states a verdict; forced through the grep processor, it loses its diagnostics at every level.
    const { text } = logs.find((f) => f.name === 'gcc-diagnostics')!;
    for (const level of LEVELS) {
      const result = expectFactsInline(text, { level, kind: 'grep', command: 'make -k' });
      expect(result.verdict?.gate).toBe('cut');
      expect(result.output).toMatch(/\[… lines \d+–\d+ \(\d+\)/);
    }
  });

  it('a result repeated in the same session keeps its fact lines (the rest becomes references)', () => {
    for (const fixture of [...verdicts, ...logs.filter((f) => readVerdict(f.text))]) {
      const squeeze = createSqueeze({ backend, minTokens: 1 });
      squeeze.compress(fixture.text, { level: 'light' });
      const again = squeeze.compress(fixture.text, { level: 'light' });
      for (const fact of again.verdict!.facts)
        expect(again.output, `${fixture.name}: ${fact.keep}`).toContain(fact.keep);
      expect(again.outcome, fixture.name).not.toBe('verdict');
    }
  });
});

describe(`verdicts only from runners and compilers (${backend})`, () => {
  const routed = (name: string) =>
    readFileSync(join(import.meta.dirname, '../fixtures/routing-outputs', `${name}.txt`), 'utf8');
  // git log -p / git show of a commit adding a tsc log as a test fixture: its lines state errors of no run.
  const fixtureDiff = routed('git-log-patch-fixture');
  const gccLog = fixtures('logs').find((f) => f.name === 'gcc-diagnostics')!.text;

  it('reads none from a diff, a git log -p, a grep, a read or a file shown by cat', () => {
    expect(readVerdict(fixtureDiff)).not.toBeNull(); // the lines alone would state one
    for (const options of [
      { command: 'git log -p -n 1 -- test/fixtures' },
      { command: 'git show HEAD~1' },
      {},
      { toolName: 'read' },
      { toolName: 'grep' },
      { command: 'cat test/fixtures/tsc.log' },
    ]) {
      const result = compress(fixtureDiff, { backend, minTokens: 1, ...options });
      expect(result.verdict, JSON.stringify(options)).toBeUndefined();
    }
    for (const command of [
      'cat build.log',
      'tail -n 400 logs/make.log | grep -v ccache',
      'git diff',
      'grep -rn error .',
    ])
      expect(compress(gccLog, { backend, minTokens: 1, command }).verdict, command).toBeUndefined();
  });

  it('reads one from what a runner or compiler printed, whatever kind the text was given', () => {
    for (const options of [{ command: 'make -k' }, { command: 'make -k', kind: 'text' as const }, {}]) {
      expect(compress(gccLog, { backend, minTokens: 1, ...options }).verdict?.facts.length).toBeGreaterThan(0);
    }
  });
});

describe(`the verdict in the notice and the result (${backend})`, () => {
  it('the notice line is one bracketed line after the retrieval hint', () => {
    const notice = retrievalNotice(
      '0123456789abcdef01234567',
      'terminal',
      100,
      undefined,
      {},
      'verdict: 2 of 600 tests failed; tsc: 1 error',
    );
    expect(notice.split('\n').at(-1)).toBe('[verdict: 2 of 600 tests failed; tsc: 1 error]');
    expect(retrievalNotice('0123456789abcdef01234567', 'terminal', 100).includes('verdict')).toBe(false);
  });

  it('the result carries the verdict as data', () => {
    const fixture = verdicts.find((f) => f.name === 'pytest')!;
    const result = compress(fixture.text, { backend, minTokens: 1, level: 'aggressive' });
    expect(result.verdict).toMatchObject({
      tests: { failed: 2, total: 600, passed: 596, skipped: 2 },
      gate: 'held',
      undemanded: 0,
    });
    expect(result.verdict?.facts.map((f) => f.kind)).toEqual(['failing-test', 'failing-test', 'tests']);
  });

  it('the async path (a worker) adds the same verdict line', async () => {
    const fixture = verdicts.find((f) => f.name === 'vitest')!;
    const squeeze = createSqueeze({ backend, minTokens: 1, workerMinChars: 1 });
    const result = await squeeze.compressAsync(fixture.text, { level: 'aggressive' });
    expect(result.outcome).toBe('compressed');
    expect(result.output).toContain(`[${verdictLine('vitest')}]`);
  });
});

describe(`the DSH smoke's cases, with verdicts (${backend})`, () => {
  // An oversized failing bash run compressed, a failing call's result (the `error` type), and one under the threshold.
  const run = `> shop@1.4.0 test\n> vitest run\n\n${Array.from({ length: 3000 }, (_, i) => ` ✓ src/unit${i}.test.ts (4 tests) ${i % 90}ms`).join('\n')}\n FAIL  src/cart.test.ts > cart total > applies the bulk discount\nAssertionError: expected 10000 to be 9000\n\n Test Files  1 failed | 3000 passed (3001)\n      Tests  1 failed | 12000 passed (12001)\n[exit code: 1]\n`;

  it('at a small maxTokens the gate never reports held when a fact is not shown, and the notice counts the facts not shown', () => {
    const text = readFileSync(join(import.meta.dirname, '../corpus/everyday/build/pytest-v.txt'), 'utf8');
    const states = new Set<string>();
    for (let maxTokens = 120; maxTokens <= 400; maxTokens += 20) {
      const result = compress(text, { backend, maxTokens, targetTokens: maxTokens, minTokens: 1, toolName: 'bash' });
      const report = result.verdict!;
      const missing = report.facts.filter((fact) => !result.output.includes(fact.keep));
      for (const fact of report.facts) expect(fact.inline, `${maxTokens}: ${fact.keep}`).toBe(!missing.includes(fact));
      expect(report.notInline).toBe(missing.length);
      if (missing.length > 0) {
        expect(report.gate, `maxTokens ${maxTokens}`).toBe('incomplete');
        expect(result.output).toContain(`[${report.line}]`);
        expect(report.line).toMatch(new RegExp(` \\(${missing.length} facts? not shown\\)$`));
      } else {
        expect(report.gate).not.toBe('incomplete');
        expect(report.line).not.toContain('not shown');
      }
      states.add(report.gate);
    }
    expect(states).toContain('incomplete');
    // At 300 tokens the three FAILED lines and the totals are all shown (before, a FAILED line gave way to sampled PASSED lines).
    const at300 = compress(text, { backend, maxTokens: 300, targetTokens: 300, minTokens: 1, toolName: 'bash' });
    expect(at300.verdict!.notInline).toBe(0);
    expect(at300.tokensOut).toBeLessThanOrEqual(300);
  });

  it('an oversized bash result keeps its verdict and names it in the notice', () => {
    const squeeze = createSqueeze({ backend });
    const result = squeeze.compress(run, { toolName: 'bash' });
    expect(result.outcome).toBe('compressed');
    for (const line of [
      'FAIL  src/cart.test.ts > cart total > applies the bulk discount',
      'Tests  1 failed | 12000 passed (12001)',
      '[exit code: 1]',
    ]) {
      expect(result.output).toContain(line);
    }
    expect(result.output).toContain('[verdict: 1 of 12,001 tests failed; exit code 1]');
  });

  it('a failing call (isError) keeps its verdict', () => {
    const result = createSqueeze({ backend }).compress(run, { toolName: 'bash', isError: true, contextFill: 0.95 });
    expect(result.output).toContain('Tests  1 failed | 12000 passed (12001)');
    expect(result.output).toContain('<<<CCR:');
  });

  it('under the threshold the text passes through whole', () => {
    const small = 'FAIL  a.test.ts > adds\n      Tests  1 failed (1)\n';
    const result = createSqueeze({ backend }).compress(small, { toolName: 'bash' });
    expect(result.outcome).toBe('below-min-tokens');
    expect(result.output).toBe(small);
  });
});

describe(`the everyday corpus's test and build outputs (${backend})`, () => {
  const outputs = everydayFiles().filter((o) => readVerdict(o.text) !== null);

  it('holds verdicts to check', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(10);
  });

  it.each(outputs.flatMap((o) => LEVELS.map((level) => [o.file, level, o] as const)))(
    '%s at %s: every fact inline',
    (_, level, o) => {
      const call = { toolName: o.tool, ...(o.command ? { command: o.command } : {}) };
      expectFactsInline(o.text, { level, ...call });
      expectFactsInline(o.text, { level, maxTokens: 600, targetTokens: 300, ...call });
    },
  );
});

describe.skipIf(skipWithoutSharedCorpus('verdict facts on the shared corpus'))(
  `the shared corpus's build logs and test reports (${backend})`,
  () => {
    const outputs = () =>
      corpusFiles().filter((f) => ['build-logs', 'test-reports'].includes(f.folder) && readVerdict(f.text) !== null);

    it('every demanded fact inline at every level, and at maxTokens 600', () => {
      const checked = outputs();
      expect(checked.length).toBeGreaterThanOrEqual(10);
      for (const file of checked) {
        for (const level of LEVELS) {
          expectFactsInline(file.text, { level, toolName: file.tool });
          expectFactsInline(file.text, { level, toolName: file.tool, maxTokens: 600, targetTokens: 300 });
        }
      }
    });
  },
);

describe(`verdict reading on hostile input (${backend})`, () => {
  it('never throws, and every fact it states is a line of the input', () => {
    const piece = fc.constantFrom(
      'FAIL',
      '--- FAIL: T',
      'Tests:',
      ' 1 failed',
      ', 2 passed',
      ' 3 total',
      '\n',
      '\r\n',
      '\r',
      '\u001b[31m',
      'error',
      ': ',
      'error[E1]: ',
      ' --> a.rs:1:2',
      'a.c:1:2: error: x',
      'make: *** ',
      'Error 1',
      '(1,2): error TS1: ',
      '===',
      ' in 1.0s',
      '\u0000',
      '\ud83d',
      '# fail 1',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 400 }),
        fc.string({ unit: 'binary', maxLength: 200 }),
        (parts, noise) => {
          const text = parts.join('') + noise;
          const verdict = readVerdict(text);
          const lines = text.split(/\r\n|\r|\n/);
          for (const fact of verdict?.facts ?? []) expect(lines[fact.line - 1]?.trimEnd()).toBe(fact.text);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('skips a 50 MB line unread and still finds the verdict after it', () => {
    const text = `${'x7 '.repeat(Math.ceil((50 << 20) / 3))}\nTests:       1 failed, 2 passed, 3 total\n`;
    expect(readVerdict(text)?.line).toBe('verdict: 1 of 3 tests failed');
  });

  it('grows linearly on lines built to make the patterns backtrack (doubling, not wall-clock)', () => {
    const unit = [
      `${'a('.repeat(200)}1,2`,
      `${'x:'.repeat(200)}`,
      `Tests:${' 1 failed,'.repeat(40)}`,
      `\u001b[31m${'\u001b['.repeat(150)}`,
      `==${' 1 passed,'.repeat(40)} in`,
      `make: *** ${'Error '.repeat(60)}`,
      `error: could not compile \`x\`${' due to'.repeat(50)}`,
    ].join('\n');
    const time = (text: string) => {
      const runs: number[] = [];
      for (let r = 0; r < 3; r++) {
        const started = performance.now();
        readVerdict(text);
        runs.push(performance.now() - started);
      }
      return Math.min(...runs);
    };
    const base = `${unit}\n`.repeat(200);
    time(base); // warm-up
    const small = time(base.repeat(4));
    const large = time(base.repeat(16));
    // Quadratic work would be 16x; linear is 4x. Generous noise on a shared machine, as in bad-input.test.ts.
    expect(large / small).toBeLessThan(10);
  });
});

/** Lines of `text` some verdict rule matches (as the reader tries it), and those of them the analysis does not cue. */
function uncued(text: string): { matched: number; missed: string[] } {
  const analysis = analysisOf(text);
  const flags = analysis.classes.flags;
  let matched = 0;
  const missed: string[] = [];
  for (let i = 0; i < analysis.lines.count; i++) {
    const body = bodyOf(analysis.line(i).trimEnd());
    const tried = [body, afterTag(body)];
    if (!RULES.some((rule) => tried.some((seen) => seen !== null && rule.pattern.test(seen)))) continue;
    matched++;
    if ((flags[i]! & VERDICT_CUED) === 0) missed.push(analysis.line(i));
  }
  return { matched, missed };
}

describe(`the verdict cue (${backend})`, () => {
  itCuesEveryMatch('verdict cue', uncued);

  it('cues the words a rule needs where the rule puts them, and no plain log line', () => {
    const lines = [
      '2026-01-01T10:00:00Z [build] FAIL src/a.test.ts',
      '  12 passing (3s)',
      'tests/test_a.py::test_x FAILED',
      'ℹ fail 1',
      '● cart › adds',
      'src/a.rs: error[E0382]: borrow',
      'mingw32-make[2]: *** [all] Error 2',
      '081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 for block blk_38865049064139660 terminating',
      'pending 2 requests; error rate 0.1; exit',
    ];
    const flags = analysisOf(lines.join('\n')).classes.flags;
    expect(lines.map((_, i) => (flags[i]! & VERDICT_CUED) !== 0)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
