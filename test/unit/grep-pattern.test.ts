// The search pattern a host passes (DSH grep's `pattern`) reaches the grep
// processor through the pipeline, and places the match in a minified line; a
// pattern the model wrote runs in linear time (RE2), never stalling on a long line.
import { describe, expect, it } from 'vitest';
import { compress, OptionsError } from '../../src/pipeline/index.js';
import { backendName } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';

const minified = fixtures('grep')
  .find((f) => f.name === 'grep-rn')!
  .text.split('\n')
  .find((l) => l.startsWith('./dist/app.min.js:1:'))!;
const options = {
  backend: backendName,
  kind: 'grep',
  level: 'light',
  minTokens: 1,
  targetTokens: 400,
  maxTokens: 1000,
} as const;

describe(`the search pattern (${backendName})`, () => {
  it('places the window on the match the pattern names', () => {
    const without = compress(minified, options).output;
    const withPattern = compress(minified, { ...options, pattern: 'null\\)throw' }).output;
    expect(without).not.toContain('throw new Error("bad input")');
    expect(withPattern).toMatch(/\[… [\d,]+ chars cut …\].*throw new Error\("bad input"\).*\[… [\d,]+ chars cut …\]/);
  });

  it('a backtracking pattern on a long line answers (RE2, linear time), and a pattern RE2 refuses is a literal', () => {
    const line = `./src/a.ts:1:${'a'.repeat(200_000)}!`;
    const result = compress(line, { ...options, pattern: '(a+)+$' });
    expect(result.outcome).toBe('compressed');
    expect(compress(minified, { ...options, pattern: '(?<=null)throw' }).outcome).toBe('compressed');
  });

  it('a pattern that is not a string is an options error naming the key', () => {
    expect(() => compress(minified, { ...options, pattern: 42 as unknown as string })).toThrow(OptionsError);
    expect(() => compress(minified, { ...options, pattern: 42 as unknown as string })).toThrow(/pattern/);
  });
});
