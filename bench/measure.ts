// Timing: medians over repeated samples in one process, after warm-up. Rivals
// are interleaved sample by sample (alternating who goes first) so drift on a
// shared machine hits both alike. Each sample times `runs` back-to-back calls
// and divides, so microsecond calls are not lost in timer resolution.
import { performance } from 'node:perf_hooks';

export interface Plan {
  readonly warmup: number;
  /** Samples per rival, unless `budgetMs` runs out first (never fewer than MIN_SAMPLES). */
  readonly samples: number;
  readonly runs: number;
  /** Rough wall-clock budget for all rivals' samples, judged from the warm-up. */
  readonly budgetMs?: number;
}

export const MIN_SAMPLES = 3;

export interface Timing {
  /** Median milliseconds per call of each rival. */
  readonly ms: number[];
  /** Samples each median was taken over. */
  readonly samples: number;
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
export function timeRivals(rivals: readonly (() => unknown)[], plan: Plan): Timing {
  let round = 0;
  for (let w = 0; w < plan.warmup; w++) {
    round = 0;
    for (const run of rivals) round += sample(run, plan.runs) * plan.runs;
  }
  const affordable = plan.budgetMs && round > 0 ? Math.floor(plan.budgetMs / round) : plan.samples;
  const samples = Math.max(MIN_SAMPLES, Math.min(plan.samples, affordable));
  const times = rivals.map(() => [] as number[]);
  for (let s = 0; s < samples; s++) {
    for (let k = 0; k < rivals.length; k++) {
      const r = (s + k) % rivals.length;
      times[r]!.push(sample(rivals[r]!, plan.runs));
    }
  }
  return { ms: times.map(median), samples };
}

/** MB/s (2^20 bytes per second) for `bytes` processed in `ms`. */
export function mbPerSecond(bytes: number, ms: number): number {
  return bytes / (1024 * 1024) / (ms / 1000);
}
