// Runs the `squeeze` CLI for tests: as a child process (the real entry point,
// through tsx) or in-process through run() with captured streams.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { run } from '../../src/cli/run.js';

export interface CliRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

const MAIN = resolve(import.meta.dirname, '../../src/cli/main.ts');

/** `node --import tsx src/cli/main.ts ...args` with `stdin` piped in (or a closed stdin). */
export function spawnCli(
  args: string[],
  options: { stdin?: string | Buffer; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', fail);
    child.on('close', (code) =>
      done({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.end(options.stdin ?? '');
  });
}

/** run() in this process, with stdin bytes and env given and both outputs captured. */
export async function runCli(
  args: string[],
  options: { stdin?: string | Buffer; env?: Record<string, string> } = {},
): Promise<CliRun> {
  const out: Buffer[] = [];
  let stderr = '';
  const code = await run(args, {
    readStdin: async () => Buffer.from(options.stdin ?? ''),
    stdinIsTTY: false,
    stdout: (data) => out.push(Buffer.from(data)),
    stderr: (text) => (stderr += text),
    env: { HOME: '/nonexistent-home', ...options.env },
  });
  return { code, stdout: Buffer.concat(out), stderr };
}
