// Hostile inputs through `compress()`: each in a fresh child process (so peak
// memory is its own), timed, with its peak RSS over the child's baseline.
// Targets: each <= 2 s and <= 4x its input size in extra memory. Peak RSS
// includes building the input (the JSON's parts array, say), so "extra" is an
// upper bound. The synchronous compress() is measured: compressAsync does the
// same work on a worker thread.
// Run: npx tsx bench/hostile.ts            (all, a table)
//      npx tsx bench/hostile.ts NAME       (one, JSON on stdout)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSqueeze } from '../src/pipeline/index.js';
import { HOSTILE, HOSTILE_COMMANDS, HOSTILE_LINEAR } from './hostile-inputs.js';

const INPUTS = { ...HOSTILE, ...HOSTILE_LINEAR };

const MB = 1024 * 1024;

interface Measured {
  readonly name: string;
  readonly inputMB: number;
  readonly ms: number;
  /** CPU time of this thread and the process's others: what the work costs when other processes share the cores. */
  readonly cpuMs: number;
  readonly extraMB: number;
  readonly outcome: string;
  readonly kind: string;
  readonly bytesOut: number;
}

function runOne(name: string): Measured {
  const text = INPUTS[name]!();
  const squeeze = createSqueeze({ recentResults: 0 });
  const base = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = squeeze.compress(text, { command: HOSTILE_COMMANDS[name] });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const peak = process.resourceUsage().maxRSS * 1024;
  return {
    name,
    inputMB: Buffer.byteLength(text) / MB,
    ms,
    cpuMs,
    extraMB: Math.max(0, peak - base) / MB,
    outcome: result.outcome,
    kind: result.kind,
    bytesOut: result.bytesOut,
  };
}

const one = process.argv[2];
if (one !== undefined) {
  process.stdout.write(JSON.stringify(runOne(one)));
} else {
  const self = fileURLToPath(import.meta.url);
  console.log('| input | MB in | wall ms | CPU ms | extra MB (peak RSS) | x input | outcome | kind | bytes out |');
  console.log('|---|---:|---:|---:|---:|---:|---|---|---:|');
  for (const name of Object.keys(INPUTS)) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', self, name], {
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0 || !child.stdout) {
      console.log(
        `| ${name} | | did not finish in 120 s (${child.signal ?? child.status}) ${child.stderr.slice(0, 200).replace(/\n/g, ' ')} | | | | | | |`,
      );
      continue;
    }
    const m = JSON.parse(child.stdout) as Measured;
    console.log(
      `| ${name} | ${m.inputMB.toFixed(1)} | ${m.ms.toFixed(0)} | ${m.cpuMs.toFixed(0)} | ${m.extraMB.toFixed(0)} | ${(m.extraMB / m.inputMB).toFixed(1)} | ${m.outcome} | ${m.kind} | ${m.bytesOut} |`,
    );
  }
}
