// Issue 11's extractive property on random inputs (fast-check): texts built
// from lines of every line-shaped kind, with repeats, blank runs, long lines
// and CRLF, forced to each line-shaped kind and level under tight budgets.
// 6,000 runs per backend (12,000 across the two), a thousand of them after a
// block of the input was shown in an earlier result: every shown line is an
// original line in order, the markers name exactly the rest, and the result's
// `omissions` are those markers' spans.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSqueezeLine, omissionsOf, parseSqueezeLine } from '../../src/processors/markers.js';
import { processors } from '../../src/processors/index.js';
import type { CompressResult } from '../../src/pipeline/result.js';
import { CONTENT_KINDS } from '../../src/types.js';
import { backendName } from '../support/backend.js';
import { extractiveViolation } from '../support/extractive.js';
import { testSqueeze } from '../support/processor-run.js';

const LINE_KINDS = CONTENT_KINDS.filter((k) => processors[k].lineShaped);
const LEVELS = ['lossless', 'light', 'aggressive', 'emergency'] as const;

const SAMPLES = [
  '2026-11-30 10:00:01 INFO  api: GET /items/1 200',
  '2026-11-30 10:00:02 WARN  db: slow query (812ms)',
  'ERROR: disk full on /dev/sda1',
  '    at Object.<anonymous> (src/app.ts:12:7)',
  'src/app.ts:12:const total = sum(items);',
  'src/lib/util.ts:40:  throw new Error("bad input");',
  '--',
  'drwxr-xr-x  2 dev dev 4096 Dec  1 15:31 src',
  '-rw-r--r--  1 dev dev  120 Dec  1 15:31 package.json',
  './src/gen:',
  'total 48',
  'commit 02293e129f2691c2b078c2152c87797fcbd0760f',
  'Author: Ada Park <ada@example.com>',
  '    Fix the cart total',
  ' src/cart.ts | 4 ++--',
  'diff --git a/src/cart.ts b/src/cart.ts',
  '@@ -1,3 +1,3 @@',
  '-const a = 1;',
  '+const a = 2;',
  'NAME      READY   STATUS    RESTARTS   AGE',
  'api-7f9   1/1     Running   0          2d',
  'worker-1  0/1     CrashLoopBackOff   12   1h',
  '```ts',
  'export function store(request: Request) {',
  '}',
  '',
  '\u001b[31mFAIL\u001b[0m src/cart.test.ts  ',
];

const line = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SAMPLES) },
  { weight: 2, arbitrary: fc.string({ maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ' ')) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(400), `${'a'.repeat(300)} ERROR ${'b'.repeat(300)}`) },
);
/** Lines with runs (a line repeated), joined by LF or CRLF, sometimes with a final break. */
const text = fc
  .tuple(
    fc.array(fc.tuple(line, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 120 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([runs, crlf, final]) => {
    const lines = runs.flatMap(([l, n]) => Array.from({ length: n }, () => l));
    const joined = lines.join(crlf ? '\r\n' : '\n');
    return final ? `${joined}${crlf ? '\r\n' : '\n'}` : joined;
  })
  // An original line in squeeze's own syntax is ambiguous by nature (docs/MARKERS.md): not generated.
  .filter((t) => !t.split(/\r\n?|\n/).some(isSqueezeLine));

const squeeze = testSqueeze({ recentResults: 0, minTokens: 1 });

/** A compressed result shows original lines in order and names every omitted one exactly. */
function expectExtractive(input: string, result: CompressResult) {
  if (result.outcome !== 'compressed') return;
  const broken = extractiveViolation(input, result.output);
  expect(broken, `${result.kind} ${result.level}: ${broken}`).toBeNull();
  expect(result.omissions).toEqual(omissionsOf(result.output));
}

describe(`extractive on random inputs (${backendName})`, () => {
  it('every kind and level under tight budgets: shown lines original and in order, the rest named exactly', () => {
    fc.assert(
      fc.property(
        text,
        fc.constantFrom(...LINE_KINDS),
        fc.constantFrom(...LEVELS),
        fc.integer({ min: 20, max: 400 }),
        (input, kind, level, targetTokens) => {
          const result = squeeze.compress(input, { kind, level, targetTokens, maxTokens: targetTokens * 3 });
          expectExtractive(input, result);
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('after blocks seen in an earlier result become references, markers still name the original lines', () => {
    fc.assert(
      fc.property(
        text,
        text,
        fc.constantFrom(...LINE_KINDS),
        fc.constantFrom('lossless', 'light', 'aggressive'),
        (seen, fresh, kind, level) => {
          const session = testSqueeze({ minTokens: 1, targetTokens: 200, maxTokens: 600 });
          session.compress(seen, { kind, level: 'lossless' });
          // The new result repeats what the model was just shown, between lines of its own.
          const input = `${fresh}\n${seen}\n${fresh}`;
          const result = session.compress(input, { kind, level });
          expectExtractive(input, result);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('the recogniser reads back every marker it writes, and no original line of the samples', () => {
    for (const sample of SAMPLES) expect(parseSqueezeLine(sample), sample).toBeNull();
    fc.assert(
      fc.property(text, (input) => {
        const result = squeeze.compress(input, { level: 'aggressive', targetTokens: 20, maxTokens: 60 });
        for (const out of result.output.split('\n')) {
          if (out.startsWith('[… lines ') || out.startsWith('[… line '))
            expect(parseSqueezeLine(out)?.type, out).toBe('omission');
        }
      }),
      { numRuns: 1000 },
    );
  });
});
