// The verdict gate in the real harness: a failing test run's bash result
// reaches the model with its verdict lines inline and the verdict line in the
// notice, at the default level and at every forced one.
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

let h: Harness | undefined;
afterEach(() => h?.close());

/** A vitest run of 3,000 files, one failing, ended by the bash tool's exit line. */
const run = [
  '> shop@1.4.0 test',
  '> vitest run',
  '',
  ...Array.from({ length: 3000 }, (_, i) => ` ✓ src/unit${i}.test.ts (4 tests) ${i % 90}ms`),
  ' FAIL  src/cart.test.ts > cart total > applies the bulk discount',
  'AssertionError: expected 10000 to be 9000',
  '',
  ' Test Files  1 failed | 2999 passed (3000)',
  '      Tests  1 failed | 11999 passed (12000)',
  '[exit code: 1]',
  '',
].join('\n');

const FACTS = [
  'FAIL  src/cart.test.ts > cart total > applies the bulk discount',
  'Test Files  1 failed | 2999 passed (3000)',
  'Tests  1 failed | 11999 passed (12000)',
  '[exit code: 1]',
];

describe('squeeze/dsh keeps the verdict', () => {
  for (const level of [undefined, 'lossless', 'light', 'aggressive'] as const) {
    it(`level ${level ?? 'default'}: the fact lines inline, the verdict line in the notice`, async () => {
      h = await createHarness();
      await h.ctx.plugin(squeezePlugin(), { logFile: '', ...(level ? { level } : {}) });
      h.tool('bash', run);
      const shown = textOf(await h.call('bash'));
      expect(Buffer.byteLength(shown)).toBeLessThan(Buffer.byteLength(run) / 2);
      for (const fact of FACTS) expect(shown).toContain(fact);
      expect(shown).toContain('[verdict: 1 of 12,000 tests failed; exit code 1]');
    });
  }
});
