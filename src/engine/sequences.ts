// Small searches over arrays that several stages share: a lower bound in
// ascending numbers, and counting values where equal ones come in runs.

/** The first position in ascending `sorted` holding `value` or more (its length when none does). */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Adds to `counts` how often each value `valueAt(i)` takes for i in
 * [from, to): a run of equal values (a column printing one unit, a file's
 * matches together, dates masked alike) is one map update, not one per item.
 */
export function countRuns<T>(from: number, to: number, valueAt: (i: number) => T, counts: Map<T, number>): void {
  for (let i = from; i < to; ) {
    const value = valueAt(i);
    let end = i + 1;
    while (end < to && valueAt(end) === value) end++;
    counts.set(value, (counts.get(value) ?? 0) + end - i);
    i = end;
  }
}
