// Tests that drive a system program (ripgrep, redis-server, chromium) skip with
// one line where it is missing, so `npm test` passes on a machine with Node
// alone; .ci/run installs each of them, so CI always runs these tests.
import { spawnSync } from 'node:child_process';

/** True when `program` runs; otherwise prints `skipped: <what> (needs <program>; .ci/run installs it)` once. */
export function hasProgram(program: string, what: string): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
  if (!found) console.warn(`skipped: ${what} (needs ${program}; .ci/run installs it)`);
  return found;
}
