// `squeeze compress`: one text through the pipeline, the original kept in the
// store so `squeeze retrieve` gives it back later.
import {
  createSqueeze,
  DEFAULTS,
  OptionsError,
  type CallOptions,
  type CompressResult,
  type SqueezeSetup,
} from '../../pipeline/index.js';
import { levelNotKeptText } from '../../pipeline/level-note.js';
import { textDigest } from '../../pipeline/repeats.js';
import { count as formatCount } from '../../text/strings.js';
import { CONTENT_KINDS, type ContentKind, type Level } from '../../types.js';
import { count, oneOf, positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { decodeLenient, decodeUtf8, readInput, type CliIo } from '../io.js';
import { openStore, STORE_OPTION, type CliStore } from '../open-store.js';
import { SessionResults } from '../../store/session-results.js';
import {
  CcrStore,
  cliRetrieval,
  MEMORY_STORE,
  StoreError,
  type OriginalStore,
  type PutMeta,
  type Stored,
} from '../../store/index.js';
import { bytesId, originalId } from '../../store/id.js';
import { notUtf8Note } from '../../processors/markers.js';
import { createEstimator } from '../../engine/index.js';

const KINDS: readonly ContentKind[] = CONTENT_KINDS;
const LEVELS: readonly Level[] = ['lossless', 'light', 'aggressive', 'emergency'];

/** What --json prints: the result without the internal error object, and whether the original was stored. */
function asJson(result: CompressResult, storeError?: string): string {
  const { error, ...rest } = result;
  return `${JSON.stringify({
    ...rest,
    ...(error === undefined ? {} : { error: String((error as Error)?.message ?? error) }),
    stored: result.id !== null,
    ...(storeError === undefined ? {} : { storeError }),
  })}\n`;
}

/** The original untouched in place of a compression whose original the store could not keep. */
function notStored(result: CompressResult, text: string): CompressResult {
  const { verdict: _verdict, levelNotKept: _levelNotKept, ...rest } = result;
  return {
    ...rest,
    output: text,
    outcome: 'not-stored',
    level: 'lossless',
    tokensOut: result.tokensIn,
    bytesOut: result.bytesIn,
    omitted: {},
    omissions: [],
    id: null,
  };
}

/**
 * The pipeline stores synchronously; the CLI's store may be Redis. So the
 * pipeline puts into this stand-in, which only computes the id, and the CLI
 * then awaits the real put before it prints anything that names the id.
 */
class StagedStore implements OriginalStore {
  staged: { original: string | Uint8Array; meta: PutMeta } | undefined;
  /** `exact`: the input's bytes when they are not UTF-8, staged in place of the text decoded from them. */
  constructor(private readonly exact?: Uint8Array) {}
  put(text: string, meta: PutMeta): Stored {
    if (this.exact !== undefined) {
      this.staged = { original: this.exact, meta };
      return { id: bytesId(this.exact), size: this.exact.length };
    }
    this.staged = { original: text, meta };
    return { id: originalId(text), size: Buffer.byteLength(text, 'utf8') };
  }
  get() {
    return { found: false, reason: 'unknown' } as const;
  }
}

/** Stores what the pipeline staged; the reason when the store could not keep it. */
async function keep(open: () => CliStore, staged: StagedStore['staged']): Promise<string | undefined> {
  if (staged === undefined) return undefined;
  let store: CliStore | undefined;
  try {
    store = open();
    await store.put(staged.original, staged.meta);
    return undefined;
  } catch (error) {
    if (error instanceof StoreError) return error.message;
    throw error;
  } finally {
    await store?.close();
  }
}

/**
 * The session's memory of its recent results, in the store's database: null for a
 * store that has none (Redis, :memory:) or cannot open, since memory only saves tokens.
 */
function sessionMemory(spec: string | boolean | undefined, io: CliIo): SessionResults | null {
  try {
    const store = openStore(spec, io);
    try {
      return store instanceof CcrStore && store.path !== ':memory:'
        ? new SessionResults(store.path, store.ttlSeconds)
        : null;
    } finally {
      void store.close();
    }
  } catch {
    return null;
  }
}

function summary(result: CompressResult, cli: ReturnType<typeof cliRetrieval>): string {
  const tokens = `${formatCount(result.tokensIn)} -> ${formatCount(result.tokensOut)} tokens`;
  switch (result.outcome) {
    case 'compressed': {
      // A Redis URL with credentials is not repeated: the user has it.
      const where = cli === undefined ? ' --store URL' : cli.store === undefined ? '' : ` --store ${cli.store}`;
      const back = result.id === null ? 'original not kept' : `original: squeeze retrieve ${result.id}${where}`;
      const late = result.timedOut ? ' (time budget ran out: the output ready then)' : '';
      return `squeeze: ${result.kind}, ${result.level}${late}: ${tokens}; ${back}\n`;
    }
    case 'failed':
      return `squeeze: compression failed (${(result.error as Error)?.message ?? String(result.error)}); passed through unchanged\n`;
    default:
      return `squeeze: passed through unchanged (${result.outcome}, ${formatCount(result.tokensIn)} tokens)\n`;
  }
}

/** Input that is not UTF-8 and was not compressed: its exact bytes (JSON cannot carry them: exit 5). */
function passThroughNotUtf8(bytes: Buffer, name: string, why: string, json: boolean, io: CliIo): void {
  if (json) throw new CliError(ExitCode.notUtf8, `${name} is not valid UTF-8 text; nothing was compressed (${why})`);
  io.stdout(bytes);
  // Exact bytes on stdout; when they end mid-line, the notice starts its own line (as in the UTF-8 path).
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) io.stderr('\n');
  io.stderr(`squeeze compress: ${name} is not valid UTF-8; passed through unchanged (${why})\n`);
}

/** A compressed result of input that is not UTF-8, with the line saying so under it. */
function withNotUtf8Note(result: CompressResult, note: string): CompressResult {
  const output = `${result.output}${note}\n`;
  return {
    ...result,
    output,
    bytesOut: Buffer.byteLength(output, 'utf8'),
    tokensOut: createEstimator().estimate(output),
  };
}

export const compressCommand: Command = {
  name: 'compress',
  summary: 'compress a tool output, keeping the original retrievable',
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
    const memory = session ? sessionMemory(values.store, io) : null;
    const recent = session && memory ? memory.recent(session) : [];
    const pipeline = (setup: SqueezeSetup) => {
      try {
        const squeeze = createSqueeze({
          ...setup,
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
        });
        for (const earlier of recent) squeeze.remember(earlier.output, earlier.original);
        return squeeze;
      } catch (error) {
        if (error instanceof OptionsError) throw usageError(error.message);
        throw error;
      }
    };
    const tool = values.tool as string | undefined;
    const command = values.command as string | undefined;
    const call: CallOptions = { toolName: tool, command, kind, level };
    const staging = new StagedStore(lenient && bytes);
    const spec = typeof values.store === 'string' ? values.store : '';
    // The notice names `squeeze retrieve` with the --store that reaches this store (none it cannot name safely).
    const cli = cliRetrieval(spec);
    let result = pipeline({ store: staging, retrieval: cli === undefined ? {} : { cli } }).compress(text, call);
    const storeError =
      result.id === null
        ? undefined
        : spec === MEMORY_STORE
          ? 'a :memory: store lasts only while this command runs'
          : await keep(() => openStore(values.store, io), staging.staged);
    // Never an id that will not retrieve, and never a cut with no way back: the original whole, and a non-zero exit.
    if (storeError !== undefined) result = notStored(result, text);
    if (session && memory) {
      try {
        memory.add(session, { original: textDigest(text), output: result.output });
      } catch {
        // Memory saves tokens later; this result stands without it.
      } finally {
        memory.close();
      }
    }
    if (note !== undefined) {
      if (result.outcome !== 'compressed') {
        passThroughNotUtf8(bytes, name, storeError ?? result.outcome, json, io);
        return storeError === undefined ? ExitCode.ok : ExitCode.storeUnavailable;
      }
      result = withNotUtf8Note(result, note);
    }
    if (json) {
      io.stdout(asJson(result, storeError));
    } else {
      io.stdout(result.output);
      // A pass-through is the original's exact bytes: when they end mid-line, the notice starts its own.
      if (result.output !== '' && !result.output.endsWith('\n')) io.stderr('\n');
      const notKept = levelNotKeptText(result, { level: '--level', maxTokens: '--max-tokens' });
      if (notKept !== undefined) io.stderr(`squeeze: ${notKept}\n`);
      io.stderr(
        storeError === undefined
          ? summary(result, cli)
          : `squeeze: the original could not be stored (${storeError}); passed through unchanged\n`,
      );
    }
    return storeError === undefined ? ExitCode.ok : ExitCode.storeUnavailable;
  },
};
