// The pipeline's invariants, levels and quality check (docs/GLOSSARY.md),
// budgets and repetition across results, on the project's backend.
import { describe, expect, it } from 'vitest';
import { compress, createSqueeze, OptionsError } from '../../src/pipeline/index.js';
import { processors } from '../../src/processors/index.js';
import { createStore } from '../../src/store/store.js';
import { backendName } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';
import { extractiveViolation } from '../support/extractive.js';

const backend = backendName;
const buildLog = fixtures('logs').find((f) => f.name === 'gcc-make')!.text;
const bigLog = [
  ...Array.from(
    { length: 3000 },
    (_, i) => `2026-11-30 10:${String(i % 60).padStart(2, '0')}:00 INFO  api: GET /items/${i} 200`,
  ),
  '2026-11-30 11:00:00 ERROR api: upstream timed out after 30000 ms',
  'SECURITY: CVE-2026-12345 (severity: critical) in libfoo 1.2.3 at vendor/libfoo/parse.c:88',
  ...Array.from(
    { length: 3000 },
    (_, i) => `2026-11-30 11:${String(i % 60).padStart(2, '0')}:00 INFO  api: GET /orders/${i} 200`,
  ),
].join('\n');

describe(`pipeline invariants (${backend})`, () => {
  it('never returns output larger than the input, on any fixture and level', () => {
    for (const level of ['lossless', 'light', 'aggressive', 'emergency'] as const) {
      for (const text of [buildLog, bigLog, 'tiny', '']) {
        const result = compress(text, { backend, level, minTokens: 1 });
        expect(result.bytesOut).toBeLessThanOrEqual(result.bytesIn);
        expect(result.output.length <= text.length || result.output === text).toBe(true);
      }
    }
  });

  it('gives byte-identical output for identical input, config and history', () => {
    const a = createSqueeze({ backend });
    const b = createSqueeze({ backend });
    const first = [a.compress(bigLog).output, a.compress(buildLog).output];
    const second = [b.compress(bigLog).output, b.compress(buildLog).output];
    expect(first).toEqual(second);
  });

  it('keeps every original retrievable: retrieve(compress(x)) === x', () => {
    const store = createStore();
    const squeeze = createSqueeze({ backend, store });
    const result = squeeze.compress(bigLog, { toolName: 'bash' });
    expect(result.outcome).toBe('compressed');
    expect(result.id).toMatch(/^[0-9a-f]{24}$/);
    expect(result.output).toContain(`<<<CCR:${result.id}|terminal|${Buffer.byteLength(bigLog)}>>>`);
    const stored = store.get(result.id!);
    expect(stored.found && stored.entry.text).toBe(bigLog);
  });

  it('passes through below minTokens, when disabled, for excluded tools, and without a store', () => {
    expect(compress('short output', { backend }).outcome).toBe('below-min-tokens');
    expect(compress(bigLog, { backend, enabled: false }).outcome).toBe('disabled');
    expect(compress(bigLog, { backend, toolName: 'write', exclude: ['write'] }).outcome).toBe('excluded');
    const unstored = compress(bigLog, { backend, store: null });
    expect(unstored.outcome).toBe('not-smaller');
    expect(unstored.output).toBe(bigLog);
  });

  it('fails open: a processor that throws everywhere returns the original untouched', () => {
    const original = processors.text.process;
    const log = processors.log.process;
    processors.text.process = () => {
      throw new Error('boom');
    };
    processors.log.process = processors.text.process;
    try {
      const result = compress(bigLog, { backend, kind: 'log' });
      expect(result.outcome).toBe('failed');
      expect(result.output).toBe(bigLog);
      expect(String(result.error)).toContain('boom');
    } finally {
      processors.text.process = original;
      processors.log.process = log;
    }
  });

  it('keeps preserved items at every level, emergency included', () => {
    for (const level of ['light', 'aggressive', 'emergency'] as const) {
      const result = compress(bigLog, { backend, level, kind: 'log' });
      expect(result.output).toContain(
        'CVE-2026-12345 (severity: critical) in libfoo 1.2.3 at vendor/libfoo/parse.c:88',
      );
    }
  });

  it('emergency keeps only the lines of preserved items, whole, under the one-line preview', () => {
    const result = compress(bigLog, { backend, level: 'emergency', toolName: 'bash', retainOriginal: false });
    const lines = result.output.split('\n');
    expect(lines[0]).toMatch(
      /^\[terminal:exit \? \| 6,?002 lines \| 2026-11-30 10:00:00 INFO {2}api: GET \/items\/0 200\]$/,
    );
    expect(result.output).not.toContain('upstream timed out');
    expect(result.omitted).toEqual({ 'non-preserved lines': 6001 });
    expect(extractiveViolation(bigLog, result.output)).toBeNull();
  });

  it('picks the level from the context fill, and harsher levels give smaller output', () => {
    const sizes = [0.5, 0.85, 0.95].map((contextFill) => {
      const result = compress(bigLog, { backend, contextFill });
      return [result.level, result.tokensOut] as const;
    });
    // At a low fill the lossless level, its same-shape runs folded, fits the target.
    expect(sizes.map(([level]) => level)).toEqual(['lossless', 'light', 'aggressive']);
    expect(sizes[2]![1]).toBeLessThan(sizes[1]![1]);
    expect(compress(bigLog, { backend, contextFill: 1.2 }).level).toBe('emergency');
  });

  it('turns a block shown in one of the last results into a reference', () => {
    const squeeze = createSqueeze({ backend, minTokens: 10 });
    const trace = Array.from(
      { length: 12 },
      (_, i) => `    at com.example.Handler.step${i}(Handler.java:${100 + i})`,
    ).join('\n');
    squeeze.compress(`first run\n${trace}\nend`, { level: 'lossless', kind: 'log' });
    const text = `second run\n${trace}\nend of second run with more words`;
    const second = squeeze.compress(text, { level: 'lossless', kind: 'log' });
    // The reference names the original's lines (2–13), as every marker after it does.
    expect(second.output).toContain(
      '[… lines 2–13 (12): repeated verbatim from an earlier tool result, starting: at com.example.Handler.step0',
    );
    expect(second.omitted['lines shown in earlier results']).toBe(12);
    expect(extractiveViolation(text, second.output.slice(0, second.output.indexOf('\n<<<CCR:')))).toBeNull();
    expect(second.omissions).toEqual([{ start: 2, count: 12 }]);
  });
});

describe('options are validated in one place', () => {
  it.each([
    [{ minTokens: 0 }, 'minTokens'],
    [{ targetTokens: 20_000, maxTokens: 10_000 }, 'targetTokens'],
    [{ minTokens: 20_000 }, 'minTokens'],
    [{ level: 'extreme' as never }, 'level'],
    [{ contextFill: -1 }, 'contextFill'],
    [{ nonsense: true } as never, 'nonsense'],
  ])('%j fails naming %s', (options, key) => {
    let error: unknown;
    try {
      createSqueeze(options);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OptionsError);
    expect((error as OptionsError).key).toBe(key);
    expect((error as Error).message).toContain(key);
  });
});

describe(`room for the host's notice (${backend})`, () => {
  const read = fixtures('code')[0]!.text;
  const squeeze = createSqueeze({ backend, store: null, retainOriginal: false, minTokens: 1, targetTokens: 1 });
  const whole = squeeze.compress(read, { kind: 'code', level: 'lossless' }).tokensIn;

  it('a read that fits maxTokens whole passes as it came, however much room the host reserves', () => {
    const result = squeeze.compress(read, { kind: 'code', level: 'lossless', maxTokens: whole, reserveTokens: 200 });
    expect(result.outcome).toBe('not-smaller');
    expect(result.output).toBe(read);
  });

  it('a compressed output leaves the reserved room under maxTokens', () => {
    const maxTokens = Math.floor(whole / 2);
    const result = squeeze.compress(read, { kind: 'code', level: 'lossless', maxTokens, reserveTokens: 200 });
    expect(result.outcome).toBe('compressed');
    expect(result.tokensOut + 200).toBeLessThanOrEqual(maxTokens);
  });
});
