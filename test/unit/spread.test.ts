// The even samples grep and listing share: runs spread across the whole
// input (first and last included), and the bit-reversed order a listing ranks
// its ties by.
import { describe, expect, it } from 'vitest';
import { evenRuns, spreadOrder } from '../../src/processors/spread.js';
import { backendName } from '../support/backend.js';

/** The runs of consecutive indices in a sorted list, as [start, length] pairs. */
function runsOf(indices: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const i of indices) {
    const last = runs.at(-1);
    if (last && last[0] + last[1] === i) last[1]++;
    else runs.push([i, 1]);
  }
  return runs;
}

describe(`spread (${backendName})`, () => {
  it('evenRuns picks exactly k of n in runs, the first at 0 and the last at n - 1, gaps within one of each other', () => {
    for (const [n, k, run] of [
      [100, 10, 1],
      [100, 24, 8],
      [443, 60, 8],
      [50, 13, 4],
      [9, 8, 3],
    ] as const) {
      const picked = evenRuns(n, k, run);
      expect(picked, `${n} ${k} ${run}`).toHaveLength(k);
      expect(new Set(picked).size).toBe(k);
      expect([...picked].sort((a, b) => a - b)).toEqual(picked);
      expect(picked[0]).toBe(0);
      expect(picked.at(-1)).toBe(n - 1);
      const runs = runsOf(picked);
      const gaps = runs.slice(1).map(([start], r) => start - runs[r]![0] - runs[r]![1]);
      if (gaps.length > 0) expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
      // Runs are `run` long but for the last; runs that touch (no gap left between them) merge.
      if (gaps.every((g) => g > 0)) expect(runs.slice(0, -1).every(([, length]) => length === run)).toBe(true);
    }
  });

  it('evenRuns gives every index when k reaches n, and none for k = 0', () => {
    expect(evenRuns(5, 5, 3)).toEqual([0, 1, 2, 3, 4]);
    expect(evenRuns(5, 9)).toEqual([0, 1, 2, 3, 4]);
    expect(evenRuns(5, 0)).toEqual([]);
    expect(evenRuns(7, 1)).toEqual([0]);
  });

  it('spreadOrder takes the first, the last, the middle, then the quarters, and every item once', () => {
    const items = Array.from({ length: 9 }, (_, i) => i);
    const order = spreadOrder(items);
    expect(order.slice(0, 5)).toEqual([0, 8, 4, 2, 6]);
    expect([...order].sort((a, b) => a - b)).toEqual(items);
  });
});
