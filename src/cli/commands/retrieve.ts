// `squeeze retrieve ID`: an original back, whole (its exact bytes), by line range, or grepped.
import { MAX_LINE_CHARS, MAX_OUTPUT_BYTES, MAX_PATTERN_CHARS, retrieve, SEARCH_DEADLINE_MS } from '../../store/index.js';
import { count as thousands } from '../../text/strings.js';
import { count, positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { lookupOnce, STORE_OPTION } from '../open-store.js';

export const retrieveCommand: Command = {
  name: 'retrieve',
  summary: 'print a stored original by id: whole, a line range, or the lines matching a pattern',
  help: `Usage: squeeze retrieve ID [--start N] [--count N] [--grep PATTERN [--literal] [--ignore-case]] [--store DIR]

Prints the original stored under ID (the 24 hex characters of a <<<CCR:ID|type|size>>>
marker) exactly as it came in, with nothing added.

  --start N          first line to print, counting from 0 (past the end prints nothing)
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

Exit status: 0 printed, 2 bad usage or pattern, 3 no such id or it expired (re-run the tool),
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
    const [id] = positionals(parsed, 1, 'retrieve takes one ID');
    if (id === undefined) throw usageError('retrieve needs the ID of an original (see squeeze retrieve --help)');
    const { values } = parsed;
    const start = count(values, 'start');
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
      ...(grep !== undefined ? { grep, literal: Boolean(values.literal), ignoreCase: Boolean(values['ignore-case']) } : {}),
      ...(maxMatches !== undefined ? { maxMatches } : {}),
    });
    if (!result.ok) {
      throw new CliError(result.reason === 'bad-pattern' ? ExitCode.usage : ExitCode.notFound, result.message);
    }
    if (grep === undefined) {
      io.stdout(Buffer.from(result.text, 'utf8'));
    } else if (result.matches === 0 && result.stoppedAt === undefined) {
      io.stderr(`squeeze: no line matches ${JSON.stringify(grep)}\n`);
    } else {
      io.stdout(`${result.text}\n`);
    }
    return ExitCode.ok;
  },
};
