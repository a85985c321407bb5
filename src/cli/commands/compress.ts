// `squeeze compress`: one text through the pipeline, the original kept in the
// store so `squeeze retrieve` gives it back later. This module stays light: a
// text that passes through before any processor (small, below the activation
// threshold) is answered here, without loading the processors or the store
// (compress-stored.ts holds the rest), so such a call starts about as fast as Node.
import { createEstimator } from '../../engine/index.js';
import { passedBeforeRouting } from '../../pipeline/intake.js';
import { DEFAULTS, OptionsError, resolveOptions, type SqueezeOptions } from '../../pipeline/options.js';
import type { CallOptions } from '../../pipeline/index.js';
import { notUtf8Note } from '../../processors/markers.js';
import { CONTENT_KINDS, type ContentKind, type Level } from '../../types.js';
import { count, oneOf, positionals } from '../args.js';
import type { Command } from '../command.js';
import { ExitCode, usageError } from '../errors.js';
import { decodeLenient, decodeUtf8, readInput } from '../io.js';
import { STORE_OPTION } from '../store-option.js';
import { report } from './compress-report.js';

const KINDS: readonly ContentKind[] = CONTENT_KINDS;
const LEVELS: readonly Level[] = ['lossless', 'light', 'aggressive', 'emergency'];

export const compressCommand: Command = {
  name: 'compress',
  help: `Usage: squeeze compress [FILE|-] [--tool NAME] [--command LINE] [--kind KIND]
                        [--level LEVEL] [--target-tokens N] [--max-tokens N]
                        [--store DIR] [--session ID] [--json]

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
  --store STORE       store folder or redis://HOST:PORT (default $XDG_CACHE_HOME/squeeze
                      or ~/.cache/squeeze); :memory: keeps nothing past this command,
                      so the text passes through unchanged (exit 6)
  --session ID        the agent session this output belongs to (default
                      $SQUEEZE_SESSION): the session's last 3 results are
                      remembered in the store, so a block (or a whole output)
                      shown in one of them becomes a reference to it
  --json              print one JSON object: output, id, stored, outcome, kind, level,
                      tokensIn, tokensOut, bytesIn, bytesOut, omitted, omissions
                      (the original lines left out: [{start, count}], 1-based), backend, ms
                      (and levelNotKept when a forced --level could not be kept,
                      verdict when the output states test results or diagnostics)

Input that is not UTF-8 is compressed as decoded, each byte sequence that
does not decode shown as U+FFFD and one line under the result saying so; the
store keeps the exact bytes and squeeze retrieve ID gives them back. Such
input that is not compressed passes through as its exact bytes (exit 0), or
is refused with exit 5 under --json. Originals expire after an hour. An id is
printed only once the store has kept the original; when it cannot (unsafe
folder, read-only, full, Redis down) the text passes through unchanged (a cut
with no way back would lose lines), stderr says why, --json says "stored":
false and "outcome": "not-stored", and the exit status is 6.
The compressed text ends with a line break, and so does its notice.
`,
  options: {
    tool: { type: 'string' },
    command: { type: 'string' },
    kind: { type: 'string' },
    level: { type: 'string' },
    'target-tokens': { type: 'string' },
    'max-tokens': { type: 'string' },
    json: { type: 'boolean' },
    session: { type: 'string' },
    ...STORE_OPTION,
  },
  async run(parsed, io) {
    const { values } = parsed;
    const [file] = positionals(parsed, 1, 'compress takes one FILE');
    const kind = oneOf(values, 'kind', KINDS);
    const level = oneOf(values, 'level', LEVELS);
    const targetTokens = count(values, 'target-tokens', 1);
    const maxTokens = count(values, 'max-tokens', 1);
    const json = Boolean(values.json);
    const { bytes, name } = await readInput(file, io);
    const strict = decodeUtf8(bytes);
    // Not UTF-8: compressed as decoded (U+FFFD for what does not decode), the exact bytes stored.
    const lenient = strict === null ? decodeLenient(bytes) : undefined;
    const text = strict ?? lenient!.text;
    const note = lenient && notUtf8Note(lenient.replaced);
    const session = (values.session as string | undefined) ?? io.env.SQUEEZE_SESSION;
    const options: SqueezeOptions = {
      // Room under the ceiling for the note's line.
      ...(note === undefined ? {} : { reserveTokens: createEstimator().estimate(note) + 1 }),
      // A ceiling below the defaults lowers the budget and the activation threshold with
      // it; without --max-tokens, a budget above the default ceiling raises the ceiling.
      ...(maxTokens === undefined
        ? targetTokens === undefined
          ? {}
          : { targetTokens, maxTokens: Math.max(DEFAULTS.maxTokens, targetTokens) }
        : {
            maxTokens,
            targetTokens: targetTokens ?? Math.min(DEFAULTS.targetTokens, maxTokens),
            minTokens: Math.min(DEFAULTS.minTokens, maxTokens),
          }),
    };
    const call: CallOptions = {
      toolName: values.tool as string | undefined,
      command: values.command as string | undefined,
      kind,
      level,
    };
    // Without a session's memory (which may make even a small text a reference), what passes through before
    // routing is answered here; the pipeline would return the same result.
    if (session === undefined || session === '') {
      let resolved: ReturnType<typeof resolveOptions>;
      try {
        resolved = resolveOptions(call, resolveOptions(options));
      } catch (error) {
        if (error instanceof OptionsError) throw usageError(error.message);
        throw error;
      }
      const estimator = createEstimator({ profile: resolved.tokenizer, backend: resolved.backend });
      const early = note === undefined ? passedBeforeRouting(text, resolved, estimator, () => performance.now()) : null;
      if (early !== null) {
        report(early, json, undefined, undefined, io);
        return ExitCode.ok;
      }
    }
    const { compressStored } = await import('./compress-stored.js');
    return compressStored({ text, bytes, name, note, lenient, session, options, call, json, store: values.store }, io);
  },
};
