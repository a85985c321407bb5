// `squeeze retrieve ID`: an original back, whole (its exact bytes), by line range, or grepped.
import {
  MAX_LINE_CHARS,
  MAX_OUTPUT_BYTES,
  MAX_PATTERN_CHARS,
  retrieve,
  SEARCH_DEADLINE_MS,
} from '../../store/index.js';
import { count as thousands } from '../../text/strings.js';
import { count, positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { lookupOnce, STORE_OPTION } from '../open-store.js';
import { ID_SHAPE, idFrom } from '../../store/id.js';

export const retrieveCommand: Command = {
  name: 'retrieve',
  help: `Usage: squeeze retrieve ID [--start N] [--count N] [--grep PATTERN [--literal] [--ignore-case]] [--store DIR]

Prints the original stored under ID exactly as it came in, with nothing added. ID is
the 24 hex characters of a <<<CCR:ID|type|size>>> marker, in any case; the whole
marker or notice line may be pasted instead (quote it).

  --start N          first line to print, counting from 1 like the line numbers of
                     omission markers and --grep (past the end prints nothing)
  --count N          how many lines to print (default: to the end)
  --grep PATTERN     print only the lines matching the regular expression (RE2 syntax,
                     linear time: no backreferences or lookaround; at most ${thousands(MAX_PATTERN_CHARS)}
                     characters), as "LINE: text" with 1-based line numbers (within
                     --start/--count); lines past ${thousands(MAX_LINE_CHARS)} characters and output past
                     ${thousands(MAX_OUTPUT_BYTES)} bytes are cut with a note; a search stops after
                     ${thousands(SEARCH_DEADLINE_MS)} ms and says where
  -F, --literal      match PATTERN as plain text
  -i, --ignore-case  match regardless of case
  --max-matches N    matching lines shown before "[… N more matches …]" (default 200)
  --store STORE      store folder, :memory: or redis://HOST:PORT
                     (default $XDG_CACHE_HOME/squeeze or ~/.cache/squeeze)

Exit status: 0 printed, 2 bad usage, pattern or id, 3 no such id or it expired (re-run the tool),
6 the store cannot be read (unsafe folder, damaged, Redis unreachable).
`,
  options: {
    start: { type: 'string' },
    count: { type: 'string' },
    grep: { type: 'string' },
    literal: { type: 'boolean', short: 'F' },
    'ignore-case': { type: 'boolean', short: 'i' },
    'max-matches': { type: 'string' },
    ...STORE_OPTION,
  },
  async run(parsed, io) {
    const [given] = positionals(parsed, 1, 'retrieve takes one ID');
    if (given === undefined) throw usageError('retrieve needs the ID of an original (see squeeze retrieve --help)');
    const id = idFrom(given);
    if (id === undefined) throw usageError(`${JSON.stringify(given.slice(0, 80))} names no id: ${ID_SHAPE}`);
    const { values } = parsed;
    // Lines count from 1: --start 0 is refused, not moved to the first line.
    const start = count(values, 'start', 1);
    const lines = count(values, 'count');
    const grep = values.grep as string | undefined;
    if (grep === undefined && (values.literal || values['ignore-case'] || values['max-matches'] !== undefined)) {
      throw usageError('--literal, --ignore-case and --max-matches go with --grep');
    }
    const maxMatches = count(values, 'max-matches');
    const store = await lookupOnce(values.store, id, io);
    const result = retrieve(store, {
      id,
      ...(start !== undefined || lines !== undefined ? { range: { start, count: lines } } : {}),
      ...(grep !== undefined
        ? { grep, literal: Boolean(values.literal), ignoreCase: Boolean(values['ignore-case']) }
        : {}),
      ...(maxMatches !== undefined ? { maxMatches } : {}),
    });
    if (!result.ok) {
      const usage = result.reason === 'bad-pattern' || result.reason === 'bad-range' || result.reason === 'bad-id';
      throw new CliError(usage ? ExitCode.usage : ExitCode.notFound, result.message);
    }
    if (grep === undefined) {
      // Past the end is not an error (the range is simply empty), but an empty stdout alone says nothing.
      if (start !== undefined && start > result.totalLines) {
        io.stderr(`squeeze: --start ${start} is past the end: the original has ${result.totalLines} lines\n`);
      }
      io.stdout(result.bytes ?? Buffer.from(result.text, 'utf8'));
    } else if (result.matches === 0 && result.stoppedAt === undefined) {
      io.stderr(`squeeze: no line matches ${JSON.stringify(grep)}\n`);
    } else {
      io.stdout(`${result.text}\n`);
    }
    return ExitCode.ok;
  },
};
