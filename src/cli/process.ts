// The `squeeze` command on this process: its arguments, its streams, its exit code.
import { ExitCode } from './errors.js';
import { processIo } from './io.js';
import { run } from './run.js';

export async function runProcess(): Promise<void> {
  let outputFailed = false;
  // A reader that stops early (`squeeze retrieve ID | head`) is not an error; any other write failure is.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return;
    outputFailed = true;
    process.stderr.write(`squeeze: cannot write output: ${error.message}\n`);
    process.exitCode = ExitCode.io;
  });
  const code = await run(process.argv.slice(2), processIo());
  process.exitCode = outputFailed ? ExitCode.io : code;
}
