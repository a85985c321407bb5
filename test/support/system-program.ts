// Tests that drive a system program (ripgrep, redis-server, chromium) skip with
// one line where it is missing, so `npm test` passes on a machine with Node
// alone; .ci/run installs each of them, so CI always runs these tests.
import { spawnSync } from 'node:child_process';

/** Where `program` is on the PATH, or undefined. */
export function programPath(program: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** True when `program` runs; otherwise prints `skipped: <what> (needs <program>; .ci/run installs it)` once. */
export function hasProgram(program: string, what: string): boolean {
  const found = programPath(program) !== undefined;
  if (!found) console.warn(`skipped: ${what} (needs ${program}; .ci/run installs it)`);
  return found;
}
