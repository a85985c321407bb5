// Running each tool on one scenario's input: squeez through the binary the
// user gives (never built here), squeeze through its CLI and its library.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compress } from '../../src/index.js';
import type { Scenario } from './scenarios.js';

/** One tool's result on one scenario: what the model sees, and the time per call. */
export interface SideResult {
  /** Each call's output, in order (three for the cross-call scenario). */
  readonly outputs: readonly string[];
  /** Median wall time of one call as a process, in milliseconds. */
  readonly processMs: number;
  /** Median time of one call inside a running process, in milliseconds (null where not measured). */
  readonly inProcessMs: number | null;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
};

function timed(run: () => string): { output: string; ms: number } {
  const started = performance.now();
  const output = run();
  return { output, ms: performance.now() - started };
}

/** stdout of a finished child, or an error naming the command and its stderr. */
function stdoutOf(what: string, result: ReturnType<typeof spawnSync>): string {
  if (result.error) throw new Error(`${what}: ${result.error.message}`, { cause: result.error });
  if (result.status !== 0 && result.status !== 6)
    throw new Error(`${what} exited ${result.status}: ${String(result.stderr).slice(0, 400)}`);
  return String(result.stdout);
}

/** A scratch folder for one run, under the system's temporary folder. */
export const scratch = (label: string): string => mkdtempSync(join(tmpdir(), `peer-squeez-${label}-`));

/**
 * squeez's side. Its state and config live in a scratch SQUEEZ_DIR and HOME,
 * never the user's: the filter runs with the benchmark's settings (no header,
 * fixed intensity), wrap calls with a fresh state folder as its benchmark does.
 */
export function runSqueez(binary: string, scenario: Scenario, input: string, repeats: number): SideResult {
  const root = scratch('squeez');
  const file = join(root, `${scenario.name}.${scenario.run.via === 'markdown' ? 'md' : 'txt'}`);
  writeFileSync(file, input);
  const env = (dir: string) => ({ ...process.env, HOME: root, SQUEEZ_DIR: dir });
  const configured = join(root, 'filter-state');
  mkdirSync(configured);
  writeFileSync(join(configured, 'config.ini'), 'show_header=false\nadaptive_intensity=false\n');
  const run = scenario.run;
  const once = (state: string): string => {
    if (run.via === 'filter') {
      const result = spawnSync(binary, ['filter', run.hint], { input, env: env(configured), maxBuffer: 1 << 28 });
      return stdoutOf(`squeez filter ${run.hint}`, result).replace(/\n$/, '');
    }
    if (run.via === 'markdown') {
      const result = spawnSync(binary, ['compress-md', '--ultra', '--dry-run', '--quiet', file], {
        env: env(configured),
      });
      return stdoutOf('squeez compress-md', result);
    }
    const result = spawnSync(binary, ['wrap', `cat ${file}`], { env: env(state), maxBuffer: 1 << 28 });
    return stdoutOf('squeez wrap', result);
  };
  const calls = run.via === 'wrap' ? run.calls : 1;
  const times: number[] = [];
  let outputs: string[] = [];
  for (let r = 0; r < repeats; r++) {
    const state = join(root, `wrap-state-${r}`);
    mkdirSync(join(state, 'sessions'), { recursive: true });
    mkdirSync(join(state, 'memory'), { recursive: true });
    outputs = [];
    for (let c = 0; c < calls; c++) {
      const { output, ms } = timed(() => once(state));
      outputs.push(output);
      times.push(ms);
    }
  }
  return { outputs, processMs: median(times), inProcessMs: null };
}

/** What squeeze is told about the scenario's producer: its command, or a file read. */
function producer(scenario: Scenario): string[] {
  return scenario.command === null ? ['--tool', 'read'] : ['--tool', 'bash', '--command', scenario.command];
}

/**
 * squeeze's side: its CLI (`compress`, default settings, and one session for the
 * calls of a scenario) and, for the time per call inside a process, its library.
 * The store is the default one (no --store, so the retrieval notice reads as a
 * user's does), put in a scratch folder through XDG_CACHE_HOME.
 */
export function runSqueeze(cli: string, scenario: Scenario, input: string, repeats: number): SideResult {
  const calls = scenario.run.via === 'wrap' ? scenario.run.calls : 1;
  const times: number[] = [];
  let outputs: string[] = [];
  for (let r = 0; r < repeats; r++) {
    const cache = scratch('cache');
    const session = `peer-${scenario.name}-${r}`;
    outputs = [];
    for (let c = 0; c < calls; c++) {
      const { output, ms } = timed(() => {
        const args = [cli, 'compress', ...producer(scenario)];
        const result = spawnSync(process.execPath, args, {
          input,
          env: { ...process.env, XDG_CACHE_HOME: cache, SQUEEZE_SESSION: session },
          maxBuffer: 1 << 28,
        });
        return stdoutOf('squeeze compress', result);
      });
      outputs.push(output);
      times.push(ms);
    }
  }
  const inProcess: number[] = [];
  const options = scenario.command === null ? { toolName: 'read' } : { toolName: 'bash', command: scenario.command };
  for (let r = 0; r < Math.max(repeats, 3); r++) inProcess.push(timed(() => compress(input, options).output).ms);
  return { outputs, processMs: median(times), inProcessMs: median(inProcess) };
}
