// Entry point of the `squeeze` command (the bundle adds the #!/usr/bin/env node line).
import { processIo } from './io.js';
import { run } from './run.js';

// A reader that stops early (`squeeze retrieve ID | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') process.stderr.write(`squeeze: cannot write output: ${error.message}\n`);
  process.exitCode = error.code === 'EPIPE' ? process.exitCode : 4;
});

process.exitCode = await run(process.argv.slice(2), processIo());
