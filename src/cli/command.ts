// The shape every `squeeze` subcommand has.
import type { OptionSpec, Parsed } from './args.js';
import type { CliIo } from './io.js';

export interface Command {
  readonly name: string;
  /** The full `squeeze <name> --help` text. */
  readonly help: string;
  /** Options besides --help, which every command has. */
  readonly options: OptionSpec;
  /** Returns the exit code; throws CliError for what the user can fix. */
  run(parsed: Parsed, io: CliIo): Promise<number>;
}

/** A command as the command table knows it before it runs: its module loads only when it is called. */
export interface CommandEntry {
  readonly name: string;
  /** One line for the command table. */
  readonly summary: string;
  load(): Promise<Command>;
}
