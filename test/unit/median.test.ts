// The selected middle value is the one a sort puts at floor(length / 2), on
// any numbers: duplicates, signs, infinities and NaN (∞ − ∞ in a deviation).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { middleValue } from '../../src/engine/median.js';

const sortedMiddle = (values: Float64Array) => values.slice().sort()[values.length >>> 1];

describe('middleValue', () => {
  it('equals the sorted middle, the input untouched', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double(), fc.integer({ min: -3, max: 3 })), { minLength: 1 }), (list) => {
        const values = Float64Array.from(list);
        const copy = values.slice();
        expect(Object.is(middleValue(values) + 0, sortedMiddle(values)! + 0)).toBe(true);
        expect(values).toEqual(copy);
      }),
    );
  });

  it('is right on an input that defeats a median of three (sorted after its rounds)', () => {
    const n = 100_001;
    const organPipe = Float64Array.from({ length: n }, (_, i) => (i < n / 2 ? i : n - i));
    expect(middleValue(organPipe)).toBe(sortedMiddle(organPipe));
  });
});
