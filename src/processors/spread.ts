// Even samples shared by the line processors that sample what they cannot
// show whole (grep hits, a listing's entries): spread across the whole input,
// never its head alone.

/**
 * Indices of `k` of `n` items in runs of `run` consecutive ones (the last run
 * shorter when `run` does not divide `k`), the runs spread evenly: the first
 * starts at 0, the last (when there are two or more) ends at n - 1, and the
 * gaps between them differ by at most one. In increasing order; all n when k >= n.
 */
export function evenRuns(n: number, k: number, run = 1): number[] {
  if (k >= n) return Array.from({ length: Math.max(0, n) }, (_, i) => i);
  if (k <= 0) return [];
  const runs = Math.ceil(k / run);
  const out: number[] = [];
  for (let r = 0; r < runs; r++) {
    // Run r starts after r runs and the first r of the runs - 1 gaps the n - k skipped items make.
    const start = r * run + (runs === 1 ? 0 : Math.round((r * (n - k)) / (runs - 1)));
    for (let j = start; j < start + Math.min(run, k - r * run); j++) out.push(j);
  }
  return out;
}

/**
 * `items` in an order that samples them evenly at every length: the first,
 * the last, the middle, then the quarters, the eighths… (bit-reversed
 * positions), so the first k of it spread across the whole list. Once the
 * step reaches twice the length every position has been taken.
 */
export function spreadOrder<T>(items: readonly T[]): T[] {
  const n = items.length;
  if (n <= 2) return [...items];
  const order: T[] = [items[0]!, items[n - 1]!];
  const taken = new Uint8Array(n);
  taken[0] = 1;
  taken[n - 1] = 1;
  for (let step = 2; order.length < n; step *= 2) {
    for (let k = 1; k < step; k += 2) {
      const at = Math.floor((k * (n - 1)) / step);
      if (!taken[at]) {
        taken[at] = 1;
        order.push(items[at]!);
      }
    }
  }
  return order;
}
