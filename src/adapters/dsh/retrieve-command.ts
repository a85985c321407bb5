// A shell command that runs `squeeze retrieve`: the notice offers it as a way
// back, so its output is an original the model asked for. Compressing it again
// would hand back markers instead of the lines; it passes through untouched and
// counts as a retrieval, as a `ccr_retrieve` call does.
import { operands, producingCommand } from '../../index.js';
import { idFrom } from '../../store/index.js';

/**
 * Names squeeze's CLI runs under: the package's bin, or its file (`dist/cli.js`)
 * run by path or by node. With the `retrieve` subcommand and an id, a `cli.js`
 * of another package is unlikely; if it is one, its output merely passes uncompressed.
 */
const SQUEEZE_PROGRAMS: ReadonlySet<string> = new Set(['squeeze', 'squeeze.js', 'cli.js']);

/** The script node runs: its first word that is not an option. */
const scriptAt = (args: readonly string[]) => args.findIndex((arg) => !arg.startsWith('-'));

/**
 * For a shell command line whose output is `squeeze retrieve`'s, the id it
 * names (undefined when none is readable: the CLI then printed its usage
 * error); null for any other command.
 */
export function squeezeRetrieval(command: string): { readonly id: string | undefined } | null {
  const producing = producingCommand(command);
  if (producing === null) return null;
  let { program, args } = producing;
  const at = program === 'node' ? scriptAt(args) : -1;
  if (at !== -1) {
    const script = args[at]!;
    program = script.slice(script.lastIndexOf('/') + 1);
    args = args.slice(at + 1);
  }
  if (!SQUEEZE_PROGRAMS.has(program) || operands('squeeze', args)[0] !== 'retrieve') return null;
  return { id: idFrom(args.slice(args.indexOf('retrieve') + 1).join(' ')) };
}
