// What `compress` accepts is what it takes: the per-result facts (`isError`,
// `spill`) in the one-shot call, and `undefined` meaning the default for the
// options a host passes on when it may not know them (level, kind, tool name,
// command, context fill): exactOptionalPropertyTypes makes the types say so.
import { describe, expect, it } from 'vitest';
import { compress, OptionsError } from '../../src/pipeline/index.js';
import { backendName as backend } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';

const log = fixtures('logs').find((f) => f.name === 'gcc-make')!.text;

describe(`call options (${backend})`, () => {
  it('compress(text, { spill }) names the spill location in the notice', () => {
    const spill = { locator: '/tmp/dsh-spill/result-7.txt', hint: 'read it with the read tool' };
    const result = compress(log, { backend, minTokens: 1, spill });
    expect(result.outcome).toBe('compressed');
    expect(result.output.split('\n')).toContain(
      '[also saved: /tmp/dsh-spill/result-7.txt (read it with the read tool)]',
    );
    expect(compress(log, { backend, minTokens: 1 }).output).not.toContain('[also saved:');
  });

  it('compress(text, { isError }) types the stored original as an error', () => {
    const result = compress(log, { backend, minTokens: 1, isError: true });
    expect(result.output).toMatch(/<<<CCR:[0-9a-f]{24}\|error\|\d+>>>/);
  });

  it('takes undefined as the default for the options a host may not know', () => {
    const given = compress(log, {
      backend,
      minTokens: 1,
      level: undefined,
      kind: undefined,
      toolName: undefined,
      command: undefined,
      contextFill: undefined,
      isError: undefined,
      spill: undefined,
    });
    expect(given.output).toBe(compress(log, { backend, minTokens: 1 }).output);
  });

  it('still refuses keys it does not know', () => {
    expect(() => compress(log, { backend, spil: {} } as never)).toThrow(OptionsError);
  });
});
