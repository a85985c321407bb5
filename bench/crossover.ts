// Where 'auto' should stop sending texts to the twin: every kernel on a sweep
// of small sizes (UTF-16 code units, the unit of SMALL_TEXT_UNITS), each point
// timed on one real text per corpus folder (log, JSON, HTML, reports, CI logs)
// so the answer is not one file's line-length profile.
import type { Backend } from '../src/engine/index.js';
import { perKindInputs } from './inputs.js';
import type { KernelCase } from './kernels.js';
import { timeRivals } from './measure.js';

export const SWEEP_UNITS = [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];

export interface CrossoverRow {
  readonly kernel: string;
  /** wasm/twin speed ratio per SWEEP_UNITS entry (> 1: WebAssembly faster). */
  readonly ratios: number[];
  /** Smallest swept size from which WebAssembly wins at every larger swept size, or null. */
  readonly crossover: number | null;
}

export function measureCrossover(
  cases: readonly KernelCase[],
  wasm: Backend,
  twin: Backend,
  samples: number,
): CrossoverRow[] {
  return cases.map((kernel) => {
    const ratios = SWEEP_UNITS.map((units) => {
      const texts = perKindInputs(units).map(({ text }) => ({ text, prepared: kernel.prepare(text) }));
      const all = (backend: Backend) => () => {
        for (const { text, prepared } of texts) kernel.run(backend, text, prepared);
      };
      const runs = Math.max(1, Math.floor((1 << 14) / units));
      const [w, t] = timeRivals([all(wasm), all(twin)], { warmup: 2, samples, runs }).ms;
      return t! / w!;
    });
    let from = SWEEP_UNITS.length;
    while (from > 0 && ratios[from - 1]! >= 1) from--;
    return { kernel: kernel.name, ratios, crossover: from < SWEEP_UNITS.length ? SWEEP_UNITS[from]! : null };
  });
}
