// Timing: medians over repeated samples in one process, after warm-up. Rivals
// are interleaved sample by sample (alternating who goes first) so drift on a
// shared machine hits both alike. Each sample times `runs` back-to-back calls
// and divides, so microsecond calls are not lost in timer resolution.
import { performance } from 'node:perf_hooks';

export interface Plan {
  readonly warmup: number;
  readonly samples: number;
  readonly runs: number;
}

/** Results are kept here so no call can be optimised away. */
export let sink: unknown = null;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function sample(run: () => unknown, runs: number): number {
  const start = performance.now();
  for (let i = 0; i < runs; i++) sink = run();
  return (performance.now() - start) / runs;
}

/** Median milliseconds per call of each rival, measured interleaved. */
export function timeRivals(rivals: readonly (() => unknown)[], plan: Plan): number[] {
  for (let w = 0; w < plan.warmup; w++) for (const run of rivals) sample(run, plan.runs);
  const times = rivals.map(() => [] as number[]);
  for (let s = 0; s < plan.samples; s++) {
    for (let k = 0; k < rivals.length; k++) {
      const r = (s + k) % rivals.length;
      times[r]!.push(sample(rivals[r]!, plan.runs));
    }
  }
  return times.map(median);
}

/** MB/s (2^20 bytes per second) for `bytes` processed in `ms`. */
export function mbPerSecond(bytes: number, ms: number): number {
  return bytes / (1024 * 1024) / (ms / 1000);
}
