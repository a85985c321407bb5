// `squeeze`: the command table, help, and the mapping of failures to exit codes.
import { demoCommand } from './commands/demo.js';
import { evalCommand } from './commands/eval.js';
import { parse } from './args.js';
import type { Command } from './command.js';
import { compressCommand } from './commands/compress.js';
import { estimateCommand } from './commands/estimate.js';
import { playgroundCommand } from './commands/playground.js';
import { retrieveCommand } from './commands/retrieve.js';
import { CliError, ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import { packageVersion } from './version.js';

export const COMMANDS: readonly Command[] = [
  compressCommand,
  retrieveCommand,
  estimateCommand,
  evalCommand,
  demoCommand,
  playgroundCommand,
];

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: squeeze <command> [options]

Compresses AI agents' tool outputs, keeping every original retrievable by id.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run "squeeze <command> --help" for a command's options, "squeeze --version"
(or -V) for the version.

Exit status: 0 success, 1 internal error (SQUEEZE_DEBUG=1 shows details),
2 bad usage (or an ID that names no id), 3 original not found or expired, 4 file cannot be read or written,
5 input is not UTF-8 where text is required, 6 the store could not keep or read
an original (compress printed the text unchanged, without an id).
`;
}

const wantsHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** Runs one command line; returns the exit code (the caller sets process.exitCode). */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(mainHelp());
    return ExitCode.usage;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`${packageVersion()}\n`);
    return ExitCode.ok;
  }
  if (wantsHelp(name) || (name === 'help' && rest.length === 0)) {
    io.stdout(mainHelp());
    return ExitCode.ok;
  }
  const command = COMMANDS.find((c) => c.name === (name === 'help' ? rest[0] : name));
  if (!command) {
    const unknown = name === 'help' ? rest[0] : name;
    io.stderr(`squeeze: unknown command ${JSON.stringify(unknown)}\n\n${mainHelp()}`);
    return ExitCode.usage;
  }
  if (name === 'help' || rest.some(wantsHelp)) {
    io.stdout(command.help);
    return ExitCode.ok;
  }
  try {
    return await command.run(parse(rest, command.options), io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`squeeze ${command.name}: ${error.message}\n`);
      return error.exitCode;
    }
    const detail = io.env.SQUEEZE_DEBUG
      ? `\n${(error as Error)?.stack ?? String(error)}`
      : ' (SQUEEZE_DEBUG=1 for details)';
    io.stderr(`squeeze ${command.name}: internal error: ${(error as Error)?.message ?? String(error)}${detail}\n`);
    return ExitCode.internal;
  }
}
