// The benchmark's inputs are what its labels say: at most the stated UTF-8
// size, within a character of it, never a split character, and deterministic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KB, MB, mixedInput, prefixOfBytes, prefixOfUnits } from '../../bench/inputs.js';
import { skipWithoutSharedCorpus } from '../support/corpus.js';

describe('benchmark inputs', () => {
  it('cut any text to at most the byte size, losing less than one character, by repeating it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), fc.integer({ min: 0, max: 4096 }), (text, bytes) => {
        const cut = prefixOfBytes(text, bytes);
        const size = Buffer.byteLength(cut, 'utf8');
        expect(size).toBeLessThanOrEqual(bytes);
        expect(size).toBeGreaterThan(bytes - 4);
        // A split character would decode to U+FFFD and break the prefix.
        expect(text.repeat(Math.ceil(bytes / Buffer.byteLength(text, 'utf8')) + 1).startsWith(cut)).toBe(true);
      }),
    );
  });

  it('cut code units without splitting a surrogate pair', () => {
    expect(prefixOfUnits('ab😀c', 3)).toBe('ab');
    expect(prefixOfUnits('ab😀c', 4)).toBe('ab😀');
    expect(prefixOfUnits('ab', 10)).toBe('ab');
  });

  it.skipIf(skipWithoutSharedCorpus('the mixed corpus input of the benchmark'))(
    'build the same mixed corpus input every time, at the labelled sizes',
    () => {
      for (const bytes of [KB, 64 * KB, MB]) {
        const text = mixedInput(bytes);
        expect(Buffer.byteLength(text, 'utf8')).toBeGreaterThan(bytes - 4);
        expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(bytes);
        expect(mixedInput(bytes)).toBe(text);
      }
    },
  );
});
