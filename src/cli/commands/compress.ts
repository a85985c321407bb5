// `squeeze compress`: one text through the pipeline, the original kept in the
// store so `squeeze retrieve` gives it back later.
import { createSqueeze, DEFAULTS, OptionsError, type CompressResult, type LevelNotKept } from '../../pipeline/index.js';
import { count as formatCount } from '../../processors/markers.js';
import { CONTENT_KINDS, type ContentKind, type Level } from '../../types.js';
import { count, oneOf, positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { decodeUtf8, readInput, type CliIo } from '../io.js';
import { openStore, STORE_OPTION } from '../open-store.js';

const KINDS: readonly ContentKind[] = CONTENT_KINDS;
const LEVELS: readonly Level[] = ['lossless', 'light', 'aggressive', 'emergency'];

/** What --json prints: the result without the internal error object. */
function asJson(result: CompressResult): string {
  const { error, ...rest } = result;
  return `${JSON.stringify({ ...rest, ...(error === undefined ? {} : { error: String((error as Error)?.message ?? error) }) })}\n`;
}

function summary(result: CompressResult): string {
  const tokens = `${formatCount(result.tokensIn)} -> ${formatCount(result.tokensOut)} tokens`;
  switch (result.outcome) {
    case 'compressed': {
      const back = result.id === null ? 'original not kept' : `original: squeeze retrieve ${result.id}`;
      const late = result.timedOut ? ' (time budget ran out: the output ready then)' : '';
      return `squeeze: ${result.kind}, ${result.level}${late}: ${tokens}; ${back}\n`;
    }
    case 'failed':
      return `squeeze: compression failed (${(result.error as Error)?.message ?? String(result.error)}); passed through unchanged\n`;
    default:
      return `squeeze: passed through unchanged (${result.outcome}, ${formatCount(result.tokensIn)} tokens)\n`;
  }
}

/** The notice for a forced --level the result could not keep. */
function levelNotice(result: CompressResult, notKept: LevelNotKept): string {
  const why = notKept.reason === 'over-max-tokens'
    ? 'its output is over --max-tokens'
    : 'it would drop a preserved item';
  const applied = result.level === notKept.requested ? `${result.level}, then lines sampled to fit` : result.level;
  return `squeeze: --level ${notKept.requested} not kept: ${why}; applied ${applied}\n`;
}

function passThroughNotUtf8(bytes: Buffer, name: string, json: boolean, io: CliIo): number {
  if (json) throw new CliError(ExitCode.notUtf8, `${name} is not valid UTF-8 text; nothing was compressed or stored`);
  io.stdout(bytes);
  io.stderr(`squeeze compress: ${name} is not valid UTF-8; passed through unchanged, nothing stored\n`);
  return ExitCode.ok;
}

export const compressCommand: Command = {
  name: 'compress',
  summary: 'compress a tool output, keeping the original retrievable',
  help: `Usage: squeeze compress [FILE|-] [--tool NAME] [--command LINE] [--kind KIND]
                        [--level LEVEL] [--target-tokens N] [--max-tokens N]
                        [--store DIR] [--json]

Compresses FILE (or standard input) and prints the result; a notice on stderr
says how it went and how to get the original back (squeeze retrieve ID).

  --tool NAME         tool that produced the text (bash, read, grep, web_fetch, ...)
  --command LINE      shell command line that printed it ("git diff HEAD~3",
                      "cd web && npm test 2>&1 | tail -50"): picks the kind by
                      program and subcommand when --tool does not
  --kind KIND         ${CONTENT_KINDS.join(', ')} (default: from --tool,
                      then --command, then the text itself)
  --level LEVEL       lossless, light, aggressive or emergency, kept while the
                      result fits --max-tokens (over it: harsher, and a notice
                      says so). Default: lossless, light past --target-tokens,
                      aggressive past --max-tokens
  --target-tokens N   token budget the default level aims for (default ${DEFAULTS.targetTokens});
                      text already extracted (a web page's) is kept whole up
                      to --max-tokens
  --max-tokens N      hard ceiling: no result is larger, notice included (default
                      ${DEFAULTS.maxTokens}, or --target-tokens when that is larger); past it
                      lines are sampled evenly, preserved items kept
  --store DIR         store directory (default $XDG_CACHE_HOME/squeeze or ~/.cache/squeeze)
  --json              print one JSON object: output, id, outcome, kind, level,
                      tokensIn, tokensOut, bytesIn, bytesOut, omitted, backend, ms
                      (and levelNotKept when a forced --level could not be kept)

Input that is not UTF-8 is passed through unchanged and not stored (exit 0),
or refused with exit 5 under --json. Originals expire after an hour.
`,
  options: {
    tool: { type: 'string' },
    command: { type: 'string' },
    kind: { type: 'string' },
    level: { type: 'string' },
    'target-tokens': { type: 'string' },
    'max-tokens': { type: 'string' },
    json: { type: 'boolean' },
    ...STORE_OPTION,
  },
  async run(parsed, io) {
    const { values } = parsed;
    const [file] = positionals(parsed, 1, 'compress takes one FILE');
    const kind = oneOf(values, 'kind', KINDS);
    const level = oneOf(values, 'level', LEVELS);
    const targetTokens = count(values, 'target-tokens');
    if (targetTokens === 0) throw usageError('--target-tokens must be at least 1');
    const maxTokens = count(values, 'max-tokens');
    if (maxTokens === 0) throw usageError('--max-tokens must be at least 1');
    const json = Boolean(values.json);
    const { bytes, name } = await readInput(file, io);
    const text = decodeUtf8(bytes);
    if (text === null) return passThroughNotUtf8(bytes, name, json, io);
    let squeeze;
    try {
      squeeze = createSqueeze({
        store: openStore(values.store, io),
        // A ceiling below the defaults lowers the budget and the activation threshold with
        // it; without --max-tokens, a budget above the default ceiling raises the ceiling.
        ...(maxTokens === undefined
          ? targetTokens === undefined ? {} : { targetTokens, maxTokens: Math.max(DEFAULTS.maxTokens, targetTokens) }
          : {
            maxTokens,
            targetTokens: targetTokens ?? Math.min(DEFAULTS.targetTokens, maxTokens),
            minTokens: Math.min(DEFAULTS.minTokens, maxTokens),
          }),
      });
    } catch (error) {
      if (error instanceof OptionsError) throw usageError(error.message);
      throw error;
    }
    const tool = values.tool as string | undefined;
    const command = values.command as string | undefined;
    const result = squeeze.compress(text, {
      ...(tool === undefined ? {} : { toolName: tool }),
      ...(command === undefined ? {} : { command }),
      ...(kind === undefined ? {} : { kind }),
      ...(level === undefined ? {} : { level }),
    });
    if (json) {
      io.stdout(asJson(result));
    } else {
      io.stdout(result.output);
      if (result.levelNotKept) io.stderr(levelNotice(result, result.levelNotKept));
      io.stderr(summary(result));
    }
    return ExitCode.ok;
  },
};
