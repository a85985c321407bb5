// `squeeze`: the command table, help, and the mapping of failures to exit codes.
import { parse } from './args.js';
import type { CommandEntry } from './command.js';
import { CliError, ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import { packageVersion } from './version.js';

// Each command's module loads when it runs: a small `squeeze compress` need not load the playground's server.
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'compress',
    summary: 'compress a tool output, keeping the original retrievable',
    load: async () => (await import('./commands/compress.js')).compressCommand,
  },
  {
    name: 'retrieve',
    summary: 'print a stored original by id: whole, a line range, or the lines matching a pattern',
    load: async () => (await import('./commands/retrieve.js')).retrieveCommand,
  },
  {
    name: 'estimate',
    summary: 'estimate the tokens a text costs',
    load: async () => (await import('./commands/estimate.js')).estimateCommand,
  },
  {
    name: 'eval',
    summary: 'measure token reduction and kept evidence on labelled samples',
    load: async () => (await import('./commands/eval.js')).evalCommand,
  },
  {
    name: 'demo',
    summary: 'compress a built-in sample CI run and show before and after',
    load: async () => (await import('./commands/demo.js')).demoCommand,
  },
  {
    name: 'playground',
    summary: 'serve the playground page (see what the model sees) on 127.0.0.1',
    load: async () => (await import('./commands/playground.js')).playgroundCommand,
  },
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
  const entry = COMMANDS.find((c) => c.name === (name === 'help' ? rest[0] : name));
  if (!entry) {
    const unknown = name === 'help' ? rest[0] : name;
    io.stderr(`squeeze: unknown command ${JSON.stringify(unknown)}\n\n${mainHelp()}`);
    return ExitCode.usage;
  }
  const command = await entry.load();
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
