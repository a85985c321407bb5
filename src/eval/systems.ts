// The systems the evaluation compares: squeeze at its defaults, and the naive
// cuts harnesses use today. (The real DSH spill-policy joins them in
// bench/eval.ts, since only adapters and benchmarks may know the harness.)
import { createSqueeze, type CallOptions, type SqueezeSetup } from '../pipeline/index.js';
import type { OriginalStore } from '../store/types.js';
import type { EvalSystem, SystemOutput } from './evaluate.js';
import type { Sample } from './samples.js';

function timed(run: () => Omit<SystemOutput, 'ms'>): SystemOutput {
  const started = performance.now();
  const result = run();
  return { ...result, ms: performance.now() - started };
}

/**
 * How a sample is routed: the host tool's name and the command line the model
 * ran (from the label), as the DSH adapter passes them.
 */
export function routingOptions(sample: Sample): CallOptions {
  return { toolName: sample.tool, command: sample.command };
}

/** squeeze at default settings, a fresh instance per sample, originals in `store()`. */
export function squeezeSystem(store: () => OriginalStore, setup: SqueezeSetup = {}): EvalSystem {
  return {
    name: 'squeeze',
    run(sample: Sample) {
      const squeeze = createSqueeze({ ...setup, store: store() });
      return timed(() => {
        const result = squeeze.compress(sample.text, routingOptions(sample));
        const stored = result.id === null ? null : squeeze.store?.get(result.id);
        const original = stored?.found ? stored.entry.text : null;
        return { output: result.output, recoverable: (needle) => original?.includes(needle) ?? false };
      });
    },
  };
}

/** Keeps the first `head` and last `tail` characters; the middle is gone for good. */
export function headTailSystem(head = 15_000, tail = 15_000): EvalSystem {
  return {
    name: `head ${head / 1000}k + tail ${tail / 1000}k chars`,
    run: (sample) =>
      timed(() => ({
        output:
          sample.text.length <= head + tail
            ? sample.text
            : `${sample.text.slice(0, head)}\n[… ${sample.text.length - head - tail} characters cut …]\n${sample.text.slice(-tail)}`,
        recoverable: () => false,
      })),
  };
}

/** Keeps the first `n` characters (web-fetch style body cap). */
export function firstCharsSystem(n = 100_000): EvalSystem {
  return {
    name: `first ${n / 1000}k chars`,
    run: (sample) => timed(() => ({ output: sample.text.slice(0, n), recoverable: () => false })),
  };
}
