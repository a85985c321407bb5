// The middle value of a column of numbers as a sort would place it, found in
// linear time: the outlier rules read a numeric column's median and its
// median deviation (the MAD) and nothing else of a sort, on every numeric
// column of a table of 100,000 rows (src/engine/fields.ts, the table processor).

/** Partitioning rounds before the range left is sorted instead: bounds the time on inputs made to defeat the pivots. */
const ROUNDS = 48;

/**
 * The value `values.slice().sort()` holds at floor(length / 2), found by
 * selection (Hoare's partition around a median of three) in a copy, or in
 * `values` itself where the caller owns it (`inPlace`). A NaN (∞ − ∞ in a
 * deviation) orders after every number only in a sort: such values are sorted.
 * Equal to the sort's value, but that -0 and 0 compare equal here, so either
 * may come back where the sort puts the other (the same number to every rule).
 */
export function middleValue(values: Float64Array, inPlace = false): number {
  const a = inPlace ? values : values.slice();
  const k = a.length >>> 1;
  for (let i = 0; i < a.length; i++) if (Number.isNaN(a[i]!)) return a.sort()[k]!;
  let lo = 0;
  let hi = a.length - 1;
  for (let round = 0; hi > lo; round++) {
    if (round === ROUNDS) {
      a.subarray(lo, hi + 1).sort();
      break;
    }
    const x = a[lo]!;
    const y = a[(lo + hi) >>> 1]!;
    const z = a[hi]!;
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    // a[lo..j] <= pivot <= a[i..hi], and what lies between equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}
