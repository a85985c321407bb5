// `squeeze compress`: one text through the pipeline, the original kept in the
// store so `squeeze retrieve` gives it back later.
import { createSqueeze, DEFAULTS, OptionsError, type CompressResult } from '../../pipeline/index.js';
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

function passThroughNotUtf8(bytes: Buffer, name: string, json: boolean, io: CliIo): number {
  if (json) throw new CliError(ExitCode.notUtf8, `${name} is not valid UTF-8 text; nothing was compressed or stored`);
  io.stdout(bytes);
  io.stderr(`squeeze compress: ${name} is not valid UTF-8; passed through unchanged, nothing stored\n`);
  return ExitCode.ok;
}

export const compressCommand: Command = {
  name: 'compress',
  summary: 'compress a tool output, keeping the original retrievable',
  help: `Usage: squeeze compress [FILE|-] [--tool NAME] [--kind KIND] [--level LEVEL]
                        [--target-tokens N] [--store DIR] [--json]

Compresses FILE (or standard input) and prints the result; a notice on stderr
says how it went and how to get the original back (squeeze retrieve ID).

  --tool NAME         tool that produced the text (bash, read, grep, web_fetch, ...)
  --kind KIND         ${CONTENT_KINDS.join(', ')} (default: detected)
  --level LEVEL       lossless, light, aggressive or emergency (default: lossless,
                      harsher only while the result is over the token ceiling)
  --target-tokens N   token budget for the result (default ${DEFAULTS.targetTokens})
  --store DIR         store directory (default $XDG_CACHE_HOME/squeeze or ~/.cache/squeeze)
  --json              print one JSON object: output, id, outcome, kind, level,
                      tokensIn, tokensOut, bytesIn, bytesOut, omitted, backend, ms

Input that is not UTF-8 is passed through unchanged and not stored (exit 0),
or refused with exit 5 under --json. Originals expire after an hour.
`,
  options: {
    tool: { type: 'string' },
    kind: { type: 'string' },
    level: { type: 'string' },
    'target-tokens': { type: 'string' },
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
    const json = Boolean(values.json);
    const { bytes, name } = await readInput(file, io);
    const text = decodeUtf8(bytes);
    if (text === null) return passThroughNotUtf8(bytes, name, json, io);
    let squeeze;
    try {
      squeeze = createSqueeze({
        store: openStore(values.store, io),
        // A budget above the default ceiling raises the ceiling with it.
        ...(targetTokens === undefined ? {} : { targetTokens, maxTokens: Math.max(DEFAULTS.maxTokens, targetTokens) }),
      });
    } catch (error) {
      if (error instanceof OptionsError) throw usageError(error.message);
      throw error;
    }
    const tool = values.tool as string | undefined;
    const result = squeeze.compress(text, {
      ...(tool === undefined ? {} : { toolName: tool }),
      ...(kind === undefined ? {} : { kind }),
      ...(level === undefined ? {} : { level }),
    });
    if (json) {
      io.stdout(asJson(result));
    } else {
      io.stdout(result.output);
      io.stderr(summary(result));
    }
    return ExitCode.ok;
  },
};
