// `squeeze compress` past the early pass-through (compress.ts): the pipeline,
// the store the original goes to, and the session's memory of recent results.
import {
  createSqueeze,
  OptionsError,
  type CallOptions,
  type CompressResult,
  type SqueezeSetup,
} from '../../pipeline/index.js';
import { unchanged } from '../../pipeline/intake.js';
import { textDigest } from '../../pipeline/repeats.js';
import type { SqueezeOptions } from '../../pipeline/options.js';
import { ExitCode, CliError, usageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { openStore, type CliStore } from '../open-store.js';
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
import { createEstimator } from '../../engine/index.js';
import { report } from './compress-report.js';

/** What compress.ts read and decided before the pipeline is needed. */
export interface CompressJob {
  readonly text: string;
  /** The input's exact bytes. */
  readonly bytes: Buffer;
  /** The input's name for notices (a file, or standard input). */
  readonly name: string;
  /** The line saying the input was not UTF-8, when it was not. */
  readonly note: string | undefined;
  /** The input decoded leniently, when it was not UTF-8. */
  readonly lenient: { readonly text: string } | undefined;
  readonly session: string | undefined;
  readonly options: SqueezeOptions;
  readonly call: CallOptions;
  readonly json: boolean;
  /** --store as given. */
  readonly store: string | boolean | undefined;
}

/** The original untouched in place of a compression whose original the store could not keep. */
function notStored(result: CompressResult, text: string): CompressResult {
  const { kind, tokensIn, bytesIn, backend, ms } = result;
  return unchanged(text, 'not-stored', { kind, level: 'lossless', tokensIn, bytesIn, backend, ms });
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

/** Compresses, stores the original and prints the result; the exit code. */
export async function compressStored(job: CompressJob, io: CliIo): Promise<number> {
  const { text, bytes, name, note, lenient, session, json, call } = job;
  const memory = session ? sessionMemory(job.store, io) : null;
  const recent = session && memory ? memory.recent(session) : [];
  const pipeline = (setup: SqueezeSetup) => {
    try {
      const squeeze = createSqueeze({ ...setup, ...job.options });
      for (const earlier of recent) squeeze.remember(earlier.output, earlier.original);
      return squeeze;
    } catch (error) {
      if (error instanceof OptionsError) throw usageError(error.message);
      throw error;
    }
  };
  const staging = new StagedStore(lenient && bytes);
  const spec = typeof job.store === 'string' ? job.store : '';
  // The notice names `squeeze retrieve` with the --store that reaches this store (none it cannot name safely).
  const cli = cliRetrieval(spec);
  let result = pipeline({ store: staging, retrieval: cli === undefined ? {} : { cli } }).compress(text, call);
  const storeError =
    result.id === null
      ? undefined
      : spec === MEMORY_STORE
        ? 'a :memory: store lasts only while this command runs'
        : await keep(() => openStore(job.store, io), staging.staged);
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
  report(result, json, storeError, cli, io);
  return storeError === undefined ? ExitCode.ok : ExitCode.storeUnavailable;
}
