// The shape every `squeeze` subcommand has.
import type { OptionSpec, Parsed } from './args.js';
import type { CliIo } from './io.js';

export interface Command {
  readonly name: string;
  /** One line for the command table. */
  readonly summary: string;
  /** The full `squeeze <name> --help` text. */
  readonly help: string;
  /** Options besides --help, which every command has. */
  readonly options: OptionSpec;
  /** Returns the exit code; throws CliError for what the user can fix. */
  run(parsed: Parsed, io: CliIo): Promise<number>;
}
