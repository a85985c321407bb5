// The pipeline (docs/GLOSSARY.md), host-independent:
// inspect -> enabled / excluded / threshold -> route -> process (level, escalate,
// quality check) -> ceiling (maxTokens, notice included) -> guard -> retain +
// notice -> result. Any internal error returns the original untouched.
import {
  CharClassEstimator,
  createBackend,
  createEstimator,
  TextAnalysis,
  type RememberedResult,
} from '../engine/index.js';
import { lineMilliTokens, textTokens } from '../processors/costs.js';
import { ProcessorTimeout } from '../processors/errors.js';
import { preservedLines } from '../processors/log/priority.js';
import {
  carriedMarks,
  linesOmission,
  lineSpan,
  note,
  omittedLines,
  renumbered,
  renumberedOmissions,
  withShownMarkers,
} from '../processors/markers.js';
import { count as formatCount, utf8Bytes, withNewline } from '../text/strings.js';
import { processors } from '../processors/index.js';
import { retrievalNotice, type RetrievalWays, type SpillLocation } from '../store/notice.js';
import { createStore } from '../store/store.js';
import { SAMPLE_ID } from '../store/id.js';
import type { OriginalStore, Stored } from '../store/types.js';
import type { ContentKind, Level, Omitted, ProcessorOutput, TokenEstimator } from '../types.js';
import { plainAnalysis } from './ansi.js';
import { ccrType } from './ccr.js';
import { emergencyOutput, itemsOf } from './emergency.js';
import { type CutSource, cutOrder, originalLinesSource, sampleToFit } from './ceiling.js';
import { budgetFor, ceilingFor, gentler, harsher, LEVELS, levelForFill } from './levels.js';
import { shortenLongLines } from './long-lines.js';
import { measureIn, refused, unchanged } from './intake.js';
import { RecentResults, textDigest } from './repeats.js';
import { foldShapes, ShapeRuns, shownDistinctMilli } from './shapes.js';
import type { Shortened } from './shortened.js';
import { resolveOptions, type ResolvedOptions, type SqueezeOptions } from './options.js';
import { detectPreserved, missingItems, type PreservedItem } from './preserve.js';
import { workerPool } from './pool.js';
import type { CompressResult, LevelNotKept, Outcome } from './result.js';
import { claimedFirst, fallbackKind, route } from './route.js';
import type { WorkerResult } from './worker.js';
import { readVerdict, type Verdict } from './verdict/extract.js';
import {
  factKeepingCut,
  lostFacts,
  readsVerdict,
  shownVerdictLine,
  type VerdictGate,
  verdictBudget,
  verdictItems,
  verdictReport,
} from './verdict/gate.js';

export type { CompressResult, LevelNotKept, Outcome } from './result.js';
export { DEFAULTS, OptionsError, resolveOptions, type ResolvedOptions, type SqueezeOptions } from './options.js';

/** Per-call facts the host knows about one result. */
export interface CallOptions extends SqueezeOptions {
  /** The tool call failed (the `error` CCR type). */
  isError?: boolean | undefined;
  /** Where the host's own spill store saved the original too (named in the notice). */
  spill?: SpillLocation | undefined;
}

export interface SqueezeSetup extends SqueezeOptions {
  /**
   * Where originals are kept. Default: an in-memory store with the default
   * budget and TTL. null keeps none: then, with retainOriginal, every result
   * passes through unchanged (no storage, no replacement).
   */
  store?: OriginalStore | null;
  /**
   * The ways back to an original its notice names: only those that work for
   * whoever reads the output (default none: the marker alone, its id for
   * this instance's store).
   */
  retrieval?: RetrievalWays;
  /** Overrides the calibrated estimator (tests, other tokenizers). */
  estimator?: TokenEstimator;
  /** The clock the time budget is measured on, in milliseconds (tests). Default performance.now. */
  now?: () => number;
}

export interface Squeeze {
  readonly options: ResolvedOptions;
  readonly store: OriginalStore | null;
  readonly estimator: TokenEstimator;
  compress(text: string, call?: CallOptions): CompressResult;
  /**
   * The same result, with texts of `workerMinChars` or more compressed on a
   * worker thread (which is handed what this instance remembers of recent
   * results, so references come out the same). Falls back to `compress` where
   * no worker can run.
   */
  compressAsync(text: string, call?: CallOptions): Promise<CompressResult>;
  /**
   * Tells this instance about a result the model was shown elsewhere in its
   * session (an earlier `squeeze compress` process): the output, and the digest
   * of its original (textDigest). Later results then refer to it as to this instance's own.
   */
  remember(output: string, originalDigest: string): void;
}

/** The worker thread's side of compressAsync (worker.ts): one result, deduped against the caller's recent results. */
export interface WorkerPipeline {
  compressBeside(text: string, call: CallOptions, remembered: readonly RememberedResult[]): CompressResult;
}

interface Attempt {
  readonly level: Level;
  readonly kind: ContentKind;
  readonly output: ProcessorOutput;
  readonly tokens: number;
  /** Cut past what the level's processor produced, to fit maxTokens. */
  readonly cut?: boolean;
  /** Returned because the time budget ran out before the next level. */
  readonly timedOut?: true;
  /** How the verdict gate kept the verdict's lines in this attempt (when it had to act). */
  readonly gate?: VerdictGate;
}

/**
 * Outputs up to this long are remembered for references (a line table and
 * window hashes on the caller's thread, about a millisecond); a longer one
 * (a big pass-through, or a very large maxTokens) is not worth that stall.
 */
const REMEMBER_MAX_CHARS = 262_144;

/** The text with its same-shape runs folded (shapes.ts), analysed. */
type Folded = Shortened & { readonly analysis: TextAnalysis };

/** A text's same-shape folding: a floor under the folded text's distinct tokens, and the fold, made when first asked. */
interface Folding {
  /** The floor, counted until it passes `limit` tokens. */
  readonly floor: (limit: number) => number;
  readonly folded: () => Folded | null;
}

class Pipeline implements Squeeze, WorkerPipeline {
  readonly options: ResolvedOptions;
  readonly store: OriginalStore | null;
  readonly estimator: TokenEstimator & { readonly backendName?: CompressResult['backend'] };
  private readonly recent: RecentResults | null;
  private readonly now: () => number;
  private readonly retrieval: RetrievalWays;
  /** A worker rebuilds this pipeline from its options alone: not with an estimator of the caller's own. */
  private readonly portable: boolean;
  /**
   * Lines of an analysed text that are markers themselves, each naming its own
   * line (long lines', same-shape folds', references to earlier results): an
   * output showing one omits what it stands for (withShownMarkers).
   */
  private readonly marked = new WeakMap<TextAnalysis, ReadonlySet<number>>();

  constructor(setup: SqueezeSetup) {
    const { store, estimator, now, retrieval, ...options } = setup;
    this.now = now ?? (() => performance.now());
    this.retrieval = retrieval ?? {};
    this.portable = estimator === undefined || estimator instanceof CharClassEstimator;
    this.options = resolveOptions(options);
    this.store = store === undefined ? createStore() : store;
    this.estimator = estimator ?? createEstimator({ profile: this.options.tokenizer, backend: this.options.backend });
    this.recent =
      this.options.recentResults > 0 ? new RecentResults(this.options.recentResults, this.options.backend) : null;
  }

  compress(text: string, call: CallOptions = {}): CompressResult {
    const original = this.recent ? textDigest(text) : '';
    const result = this.compressOnce(text, call, original);
    this.remember(result.output, original);
    return result;
  }

  /** What the model was shown, and its original's digest, for references in later results (compress, compressAsync, the CLI's session). */
  remember(output: string, original: string): void {
    if (output.length > REMEMBER_MAX_CHARS) return;
    try {
      this.recent?.remember(output, original);
    } catch {
      // Remembering is an optimisation for later results: never fail this one for it.
    }
  }

  compressBeside(text: string, call: CallOptions, remembered: readonly RememberedResult[]): CompressResult {
    this.recent?.restore(remembered);
    return this.compressOnce(text, call);
  }

  async compressAsync(text: string, call: CallOptions = {}): Promise<CompressResult> {
    const started = this.now();
    const { isError = false, spill, ...perCall } = call;
    const options = resolveOptions(perCall, this.options);
    const pool = this.portable && text.length >= options.workerMinChars ? await workerPool() : null;
    if (pool === null) return this.compress(text, call);
    let done: WorkerResult;
    try {
      done = await pool.run({
        text,
        options,
        isError,
        spill,
        retrieval: this.retrieval,
        remembered: this.recent?.remembered ?? [],
      });
    } catch {
      return this.compress(text, call); // the worker could not run: the same work, here
    }
    const result = this.retained(text, done, options, isError, started);
    // Kept another way, or (estimates of parts do not add up exactly) over the ceiling: the same work here.
    if (result === null || (result.outcome === 'compressed' && result.tokensOut > options.maxTokens))
      return this.compress(text, call);
    this.remember(result.output, done.digest);
    return result;
  }

  /** Tokens the notice adds to an output (its line break and final newline included), sized with a sample id. */
  private noticeTokens(
    type: ReturnType<typeof ccrType>,
    size: number,
    spill: SpillLocation | undefined,
    verdict?: string,
    codesRemoved = false,
  ): number {
    const notice = retrievalNotice(SAMPLE_ID, type, size, spill, this.retrieval, verdict, codesRemoved);
    return this.estimator.estimate(notice) + 2;
  }

  /**
   * A worker's result made whole here: its error rebuilt and the original
   * stored under the id its notice already names (the worker computed it from
   * the text, as the stores do); null when this instance cannot keep it so
   * (no store, another id, a put that fails).
   */
  private retained(
    text: string,
    done: WorkerResult,
    options: ResolvedOptions,
    isError: boolean,
    started: number,
  ): CompressResult | null {
    const { error: failure, digest: _digest, ...rest } = done;
    const error = failure && Object.assign(new Error(failure.message), { name: failure.name });
    const result: CompressResult = { ...rest, ms: this.now() - started, ...(error ? { error } : {}) };
    if (result.id === null) return result;
    if (!this.store) return null;
    try {
      const stored = this.store.put(text, { type: ccrType(options.toolName, isError, text), tool: options.toolName });
      // A store of the caller's own may name originals its own way: its id is then not the notice's.
      return stored.id === result.id ? result : null;
    } catch {
      return null; // compress() meets the same failure and reports it as a result, never a rejection
    }
  }

  /**
   * A text whose original was a recent result's, byte for byte: one marker naming all its lines
   * (the model has the earlier result in view), or null when that is not smaller, is a read or states a verdict.
   */
  private repeatOf(
    text: string,
    analysis: TextAnalysis,
    options: ResolvedOptions,
    type: ReturnType<typeof ccrType>,
    facts: { bytesIn: number; tokensIn: number; started: number; spill: SpillLocation | undefined },
  ): CompressResult | null {
    const kind = route(analysis, options);
    // What the model asked to see (a file read) is shown again, as repeats inside it are (losslessUpToMax);
    // a run's verdict keeps its fact lines (the verdict gate), so its repeat goes the usual way.
    if (processors[kind].losslessUpToMax || (readsVerdict(kind, options) && readVerdict(text, analysis))) return null;
    const marker = omittedLines(0, analysis.lines.count, 'identical to an earlier tool result');
    const attempt: Attempt = {
      level: 'lossless',
      kind,
      output: {
        text: marker,
        omitted: { 'lines of an identical earlier result': analysis.lines.count },
        omissions: [linesOmission(0, analysis.lines.count)],
      },
      tokens: this.estimator.estimate(marker),
    };
    let stored: Stored | undefined;
    return this.finish(attempt, options, type, {
      ...facts,
      backend: analysis.backendName,
      keep: (store) => (stored ??= store.put(text, { type, tool: options.toolName })),
      verdict: null,
    });
  }

  private compressOnce(text: string, call: CallOptions, original = ''): CompressResult {
    const started = this.now();
    const { isError = false, spill, ...perCall } = call;
    const options = resolveOptions(perCall, this.options);
    const bytesIn = utf8Bytes(text);
    let tokensIn = 0;
    const passThrough = (
      outcome: Outcome,
      kind: ContentKind = 'text',
      level: Level = 'lossless',
      error?: unknown,
    ): CompressResult =>
      unchanged(text, outcome, {
        kind,
        level,
        tokensIn,
        bytesIn,
        backend: this.estimator.backendName ?? 'js',
        ms: this.now() - started,
        error,
      });
    const no = refused(options);
    if (no !== null) return passThrough(no);
    let kind: ContentKind = 'text';
    let level: Level = 'lossless';
    try {
      const measured = measureIn(text, options, this.estimator);
      const { whole, mayBeLong } = measured;
      tokensIn = measured.tokensIn;
      if (original !== '' && text.length > 0 && this.recent?.hasOriginal(original)) {
        const type = ccrType(options.toolName, isError, text);
        const seen = whole ?? new TextAnalysis(text, createBackend(options.backend));
        const repeat = this.repeatOf(text, seen, options, type, { bytesIn, tokensIn, started, spill });
        if (repeat) return repeat;
      }
      // Routing (every processor's sniff) only for what is compressed.
      if (tokensIn < options.minTokens) return passThrough('below-min-tokens');
      const coloured = whole ?? new TextAnalysis(text, createBackend(options.backend));
      // What the model sees has no colour or cursor codes (the original stored keeps them):
      // routed by that text too, so `grep --color` output is still grep. A kind that claims
      // the text first (binary data) takes it as printed: its escape bytes are no terminal codes.
      const first = claimedFirst(coloured, options);
      const plained = first === null ? plainAnalysis(coloured, createBackend(options.backend)) : null;
      const plain = plained?.text ?? null;
      const routed = plained ?? coloured;
      kind = first ?? route(routed, options);
      const starting = options.level === 'auto' ? levelForFill(options.contextFill) : options.level;
      if ((starting === 'lossless' || starting === 'light') && processors[kind].shownWhole?.(text))
        return passThrough('asked-for', kind, starting);
      const long = mayBeLong && processors[kind].lineShaped ? shortenLongLines(plain ?? text) : null;
      const seen = long?.text ?? plain ?? text;
      const analysis = long ? new TextAnalysis(seen, createBackend(options.backend)) : routed;
      const codesRemoved = plain !== null;
      if (long) this.marked.set(analysis, long.marked);
      const type = ccrType(options.toolName, isError, text);
      const { items: preserved } = detectPreserved(
        analysis,
        processors[kind].lineShaped,
        this.estimator,
        Math.floor(options.maxTokens / 2),
      );
      // The verdict gate: lines stating the verdict are demanded like preserved items (verdict/gate.ts).
      // Read from the coloured text when codes go: its fact lines' ANSI-free runs are in the plain lines
      // too, and in the original should the result pass through.
      const verdict = readsVerdict(kind, options)
        ? plain !== null && !long
          ? readVerdict(text, coloured)
          : readVerdict(seen, analysis)
        : null;
      // The ceiling holds for what the model sees: the retrieval notice included.
      const notice = options.retainOriginal ? this.noticeTokens(type, bytesIn, spill, verdict?.line, codesRemoved) : 0;
      const room = options.maxTokens - notice - options.reserveTokens;
      const items = verdict
        ? [
            ...preserved,
            ...verdictItems(verdict, this.estimator, verdictBudget(options.maxTokens, room, preserved, this.estimator)),
          ]
        : preserved;
      // Blocks the model saw in a recent result become references first.
      const { lineShaped, losslessUpToMax } = processors[kind];
      const deduped =
        lineShaped && !losslessUpToMax
          ? (this.recent?.dedupe(
              analysis,
              preservedLines(
                analysis,
                items.map((item) => item.text),
              ),
            ) ?? null)
          : null;
      const work = deduped ? this.shortened(deduped, analysis, options) : analysis;
      // The lossless level folds same-shape runs: each marker names exactly the lines it stands for.
      const folding = processors[kind].foldsShapes
        ? this.folding(
            work,
            preservedLines(
              work,
              items.map((item) => item.text),
            ),
            processors[kind].foldsShapes === 'exact',
            options,
          )
        : null;
      const deadline = started + options.timeBudgetMs;
      const expired = () => this.now() > deadline;
      // Analysis of a huge text can eat the budget by itself: then no level is tried.
      if (expired()) return passThrough('timed-out', kind);
      const ran = this.run(work.text, work, kind, options, items, type, expired, folding, room);
      const report = (gate: VerdictGate, output: string) =>
        verdict ? { verdict: verdictReport(verdict, items, gate, output) } : {};
      if (ran === null) return passThrough('timed-out', kind);
      let attempt = ran;
      if (deduped) {
        const omitted = { ...attempt.output.omitted, 'lines shown in earlier results': deduped.lines };
        // Markers were numbered on the deduplicated text: the original's numbers instead.
        attempt = {
          ...attempt,
          output: {
            text: renumbered(attempt.output.text, deduped.starts),
            omitted,
            omissions: renumberedOmissions(attempt.output.omissions, deduped.starts),
          },
        };
      }
      if (long) {
        const omitted = { ...attempt.output.omitted, 'lines too long to analyse': long.lines };
        attempt = { ...attempt, output: { ...attempt.output, omitted } };
      }
      // A text that fits whole is not cut to make room for a notice: it passes as it came.
      if (attempt.level === 'lossless' && attempt.output.text === text && tokensIn <= options.maxTokens) {
        return { ...passThrough('not-smaller', kind, level), ...report('held', text) };
      }
      let ceiling = Math.max(1, room);
      // One put per result, however many tries the ceiling takes (a put hashes the whole original).
      let stored: Stored | undefined;
      const keep = (store: OriginalStore) => (stored ??= store.put(text, { type, tool: options.toolName }));
      for (let tries = 1; ; tries++) {
        const fitted = this.holdVerdict(
          this.fit(attempt, analysis, options, items, type, ceiling, expired),
          analysis,
          items,
          ceiling,
          options,
          type,
          tokensIn,
        );
        if (fitted === null) return { ...passThrough('verdict', kind, level), ...report('passed-through', text) };
        kind = fitted.kind;
        level = fitted.level;
        const result = this.finish(fitted, options, type, {
          bytesIn,
          tokensIn,
          started,
          backend: analysis.backendName,
          spill,
          keep,
          verdict,
          codesRemoved,
        });
        if (result === null) return { ...passThrough('not-smaller', kind, level), ...report('held', text) };
        // Estimates of parts do not add up exactly to the estimate of the whole.
        const over = result.tokensOut + options.reserveTokens - options.maxTokens;
        if (over <= 0 || tries === 3) return { ...result, ...report(fitted.gate ?? 'held', result.output) };
        ceiling = Math.max(1, ceiling - over - 4);
      }
    } catch (error) {
      return passThrough('failed', kind, level, error);
    }
  }

  /**
   * Processes at the chosen level, escalating over the ceiling and reverting on
   * a lost item. A level forced by the caller is kept past targetTokens; only
   * maxTokens sends it harsher (and the result says so). Past the deadline it
   * starts no further level: it returns the attempt in hand (marked timedOut),
   * or null when that one lost a preserved item and the gentler level was never run.
   * A processor that runs out of time midway (ProcessorTimeout) gives way to the
   * attempt in hand, else to the emergency form, marked timedOut.
   */
  private run(
    text: string,
    analysis: TextAnalysis,
    kind: ContentKind,
    options: ResolvedOptions,
    items: readonly PreservedItem[],
    type: ReturnType<typeof ccrType>,
    expired: () => boolean,
    folding: Folding | null,
    room: number,
  ): Attempt | null {
    const forced = options.level !== 'auto';
    // Past lossless the processors aim at the room the notice leaves, not at maxTokens: aimed
    // there, a light output that fits maxTokens but not the notice is not redone at aggressive.
    // Lossless aims at maxTokens: a text that fits whole passes as it came (no notice to make room for).
    const fill = Math.max(1, Math.min(room, options.maxTokens));
    const aimed = { ...options, maxTokens: fill, targetTokens: Math.min(options.targetTokens, fill) };
    let level: Level = options.level === 'auto' ? levelForFill(options.contextFill) : options.level;
    const { lineShaped, losslessUpToMax } = processors[kind];
    if (
      !forced &&
      level === 'lossless' &&
      lineShaped &&
      !losslessUpToMax &&
      // The runs alone tell most big texts apart without folding them (writing every marker).
      ((folding !== null && folding.floor(options.targetTokens) > options.targetTokens) ||
        this.distinctTokens(folding?.folded()?.analysis ?? analysis) > options.targetTokens)
    ) {
      // Lossless keeps every distinct line once at least: past the target it is
      // certain to escalate, so spare the big text that pass.
      level = 'light';
    }
    let reverted = false;
    /** A harsher level lost a verdict line. */
    let gentled = false;
    let previous: Attempt | null = null;
    for (;;) {
      let attempt: Attempt;
      const folded = level === 'lossless' ? (folding?.folded() ?? null) : null;
      try {
        attempt = folded
          ? this.foldedAttempt(folded, kind, options, items, type, expired)
          : this.attempt(text, analysis, kind, level, level === 'lossless' ? options : aimed, items, type, expired);
      } catch (error) {
        if (!(error instanceof ProcessorTimeout)) throw error;
        const fallback = previous ?? this.attempt(text, analysis, kind, 'emergency', options, items, type);
        return { ...fallback, timedOut: true };
      }
      // A harsher level that saves nothing (evidence-dense text) is not worth its
      // loss, unless the gentler one is over the hard ceiling.
      if (previous && !reverted && attempt.tokens >= previous.tokens && previous.tokens <= options.maxTokens)
        return previous;
      const missing = missingItems(attempt.output.text, items);
      const back = gentler(level);
      if (missing.length > 0 && back !== null) {
        gentled ||= missing.some((item) => item.kind === 'verdict');
        // The quality check: revert to the previous level and retry.
        if (previous && previous.level === back) return gentled ? { ...previous, gate: 'gentler' } : previous;
        if (expired()) return null;
        reverted = true;
        level = back;
        continue;
      }
      const next = harsher(level);
      const ceiling = forced
        ? options.maxTokens
        : ceilingFor(level, options.targetTokens, options.maxTokens, processors[attempt.kind].losslessUpToMax);
      if (attempt.tokens > ceiling && !reverted && next !== null && next !== 'emergency') {
        if (expired()) return { ...attempt, timedOut: true };
        previous = attempt;
        level = next;
        continue;
      }
      return gentled ? { ...attempt, gate: 'gentler' } : attempt;
    }
  }

  /**
   * The verdict gate's last check: an attempt that still lacks a demanded
   * verdict line gives way to the original when that fits maxTokens (null:
   * pass through), else to a cut of the original keeping every fact line, else
   * to the emergency form (which shows every demanded line).
   */
  private holdVerdict(
    attempt: Attempt,
    analysis: TextAnalysis,
    items: readonly PreservedItem[],
    ceiling: number,
    options: ResolvedOptions,
    type: ReturnType<typeof ccrType>,
    tokensIn: number,
  ): Attempt | null {
    if (lostFacts(attempt.output.text, items).length === 0) return attempt;
    if (tokensIn <= options.maxTokens) return null;
    const cut = factKeepingCut(analysis, items, this.estimator, ceiling, cutOrder(processors[attempt.kind], analysis));
    const output = this.placed(cut ?? emergencyOutput(analysis, type, items, options.previewMaxChars), analysis);
    return {
      ...attempt,
      level: cut ? attempt.level : 'emergency',
      output,
      tokens: this.estimator.estimate(output.text),
      cut: true,
      gate: 'cut',
    };
  }

  /**
   * The hard ceiling: an attempt still over `ceiling` is cut down by lines
   * (verdict lines kept, then the processor's skeleton, then the preserved
   * lines, then samples; the preserved lines left out counted), else replaced
   * by the emergency form.
   */
  private fit(
    attempt: Attempt,
    analysis: TextAnalysis,
    options: ResolvedOptions,
    items: readonly PreservedItem[],
    type: ReturnType<typeof ccrType>,
    ceiling: number,
    expired: () => boolean,
  ): Attempt {
    if (attempt.tokens <= ceiling || attempt.level === 'emergency') return attempt;
    let marked = attempt.timedOut ? { timedOut: true as const } : {};
    // The processor's own harshest form first, told the ceiling it must meet; past the time
    // budget, or when the attempt in hand is that form's floor already, only the cheap cuts below run.
    const floored = attempt.level === 'aggressive' && ceiling <= (attempt.output.floor ?? 0);
    let max = attempt.timedOut || floored ? 0 : ceiling;
    for (let retry = 0; retry < 2 && max > 0; retry++) {
      const narrowed = { ...options, maxTokens: max, targetTokens: Math.min(options.targetTokens, max) };
      let harsh: Attempt;
      try {
        harsh = this.attempt(analysis.text, analysis, attempt.kind, 'aggressive', narrowed, items, type, expired);
      } catch (error) {
        if (!(error instanceof ProcessorTimeout)) throw error;
        marked = { timedOut: true };
        break;
      }
      if (harsh.tokens <= ceiling && missingItems(harsh.output.text, items).length === 0)
        return { ...harsh, cut: true };
      max = Math.floor((max * ceiling * 0.95) / Math.max(harsh.tokens, 1));
    }
    const preserved = items.map((item) => item.text);
    const { lineShaped } = processors[attempt.kind];
    let source: CutSource;
    if (lineShaped) {
      source = originalLinesSource(
        analysis,
        items,
        'lines (sampled to fit maxTokens)',
        cutOrder(processors[attempt.kind], analysis),
      );
    } else {
      // Extractions (HTML text, JSON tables) are cut in their own lines: raw markup sampled is noise.
      // A long line holding an item (a JSON record on one line) is cut to its items, as the emergency form cuts it.
      const holds = (line: string) => preserved.some((p) => p !== '' && line.includes(p));
      const lines = attempt.output.text.split('\n').map((line) => (holds(line) ? itemsOf(line, preserved) : line));
      const keep = new Set(lines.flatMap((line, i) => (holds(line) ? [i] : [])));
      const gap = (from: number, to: number) =>
        note(`${formatCount(to - from)} more lines of this ${attempt.kind} output omitted`);
      source = { lines, keep, gap, original: false, unit: 'output lines (sampled to fit maxTokens)' };
    }
    const cut = sampleToFit(source, this.estimator, ceiling);
    // A line cut keeps every verdict line and counts the preserved lines it leaves out in the
    // markers of their gaps: the structure it keeps is worth more than the emergency form.
    if (cut !== null && (lineShaped ? lostFacts(cut.text, items) : missingItems(cut.text, items)).length === 0) {
      const omitted = lineShaped ? cut.omitted : { ...attempt.output.omitted, ...cut.omitted };
      return {
        ...attempt,
        output: { text: cut.text, omitted, omissions: this.placed(cut, analysis).omissions },
        tokens: this.estimator.estimate(cut.text),
        cut: true,
        ...marked,
      };
    }
    const output = this.placed(emergencyOutput(analysis, type, items, options.previewMaxChars), analysis);
    return {
      level: 'emergency',
      kind: attempt.kind,
      output,
      tokens: this.estimator.estimate(output.text),
      cut: true,
      ...marked,
    };
  }

  /** Tokens of the first occurrence of every distinct line: a floor for any lossless output. */
  private distinctTokens(analysis: TextAnalysis): number {
    const milli = lineMilliTokens(this.estimator, analysis);
    const group = analysis.exact.group;
    let sum = 0;
    for (let i = 0; i < group.length; i++) if (group[i] === i) sum += milli[i]!;
    return sum / 1000;
  }

  /** The same-shape runs of a text, folded (and the folded text analysed) only when first asked. */
  private folding(
    analysis: TextAnalysis,
    keep: ReadonlySet<number>,
    exact: boolean,
    options: ResolvedOptions,
  ): Folding {
    const runs = new ShapeRuns(analysis, keep, exact);
    const skip = this.marked.get(analysis) ?? new Set<number>();
    const floor = (limit: number) =>
      shownDistinctMilli(analysis, runs, lineMilliTokens(this.estimator, analysis), skip, limit * 1000) / 1000;
    let done: Folded | null | undefined;
    const folded = (): Folded | null => {
      if (done === undefined) {
        const shapes = foldShapes(analysis, keep, exact, [...runs]);
        done = shapes && { ...shapes, analysis: this.shortened(shapes, analysis, options) };
      }
      return done;
    };
    return { floor, folded };
  }

  /** The lossless attempt on the text with its same-shape runs folded, its markers in the unfolded text's numbers. */
  private foldedAttempt(
    folded: Folded,
    kind: ContentKind,
    options: ResolvedOptions,
    items: readonly PreservedItem[],
    type: ReturnType<typeof ccrType>,
    expired?: () => boolean,
  ): Attempt {
    const attempt = this.attempt(
      folded.analysis.text,
      folded.analysis,
      kind,
      'lossless',
      options,
      items,
      type,
      expired,
    );
    const text = renumbered(attempt.output.text, folded.starts);
    const omitted = { ...attempt.output.omitted, 'lines of same-shape runs': folded.lines };
    const omissions = renumberedOmissions(attempt.output.omissions, folded.starts);
    return { ...attempt, output: { text, omitted, omissions }, tokens: this.estimator.estimate(text) };
  }

  /**
   * A shortened text (runs folded, blocks seen earlier made references)
   * analysed, with its marker lines and those it carries over from `from`,
   * these numbered as its own lines (renumbering then maps them with the rest).
   */
  private shortened(shortened: Shortened, from: TextAnalysis, options: ResolvedOptions): TextAnalysis {
    let analysis = new TextAnalysis(shortened.text, createBackend(options.backend));
    const carried = carriedMarks(this.marked.get(from) ?? new Set(), shortened.starts);
    if (carried.size > 0) {
      const lines = Array.from({ length: analysis.lines.count }, (_, k) =>
        carried.has(k) ? ownNumber(analysis.line(k), shortened.starts[k]!, k) : analysis.line(k),
      );
      const last = analysis.lines.count - 1;
      const end = analysis.lines.end[last]! < shortened.text.length ? '\n' : '';
      analysis = new TextAnalysis(`${lines.join('\n')}${end}`, createBackend(options.backend));
    }
    this.marked.set(analysis, new Set([...shortened.marked, ...carried]));
    return analysis;
  }

  /** An output over an analysed text, its omissions with those of the marker lines it shows. */
  private placed(output: ProcessorOutput, analysis: TextAnalysis): ProcessorOutput {
    const marked = this.marked.get(analysis);
    return marked ? { ...output, omissions: withShownMarkers(output.omissions, marked) } : output;
  }

  private attempt(
    text: string,
    analysis: TextAnalysis,
    kind: ContentKind,
    level: Level,
    options: ResolvedOptions,
    items: readonly PreservedItem[],
    type: ReturnType<typeof ccrType>,
    expired?: () => boolean,
  ): Attempt {
    if (level === 'emergency') {
      const output = this.placed(emergencyOutput(analysis, type, items, options.previewMaxChars), analysis);
      return { level, kind, output, tokens: this.estimator.estimate(output.text) };
    }
    let current: ContentKind | null = kind;
    let failure: unknown;
    while (current !== null) {
      try {
        const output = this.placed(
          processors[current].process({
            text,
            analysis,
            level,
            budget: budgetFor(level, options.targetTokens, options.maxTokens),
            maxTokens: options.maxTokens,
            estimator: this.estimator,
            preserve: items.map((item) => item.text),
            toolName: options.toolName,
            pattern: options.pattern,
            expired,
          }),
          analysis,
        );
        return { level, kind: current, output, tokens: textTokens(this.estimator, analysis, output.text) };
      } catch (error) {
        // Out of time: no other processor is tried (the caller has a form ready).
        if (error instanceof ProcessorTimeout) throw error;
        failure ??= error;
        current = fallbackKind(current);
      }
    }
    throw failure;
  }

  /** The guard and retention: null when the result must pass through unchanged. */
  private finish(
    attempt: Attempt,
    options: ResolvedOptions,
    type: ReturnType<typeof ccrType>,
    facts: {
      bytesIn: number;
      tokensIn: number;
      started: number;
      backend: CompressResult['backend'];
      spill: SpillLocation | undefined;
      verdict: Verdict | null;
      /** The output was made from the text without its terminal codes (ansi.ts). */
      codesRemoved?: boolean;
      /** Stores the original (once per result) and says where. */
      keep: (store: OriginalStore) => Stored;
    },
  ): CompressResult | null {
    let output = withNewline(attempt.output.text);
    let id: string | null = null;
    if (options.retainOriginal) {
      if (!this.store) return null;
      const stored = facts.keep(this.store);
      id = stored.id;
      const verdictLine = facts.verdict ? shownVerdictLine(facts.verdict, output) : undefined;
      output = withNotice(
        output,
        retrievalNotice(stored.id, type, stored.size, facts.spill, this.retrieval, verdictLine, facts.codesRemoved),
      );
    }
    const bytesOut = utf8Bytes(output);
    const tokensOut = this.estimator.estimate(output);
    if (bytesOut >= facts.bytesIn || tokensOut >= facts.tokensIn) return null;
    const omitted: Omitted = { ...attempt.output.omitted };
    const notKept = levelNotKept(options.level, attempt);
    // What the markers state, as the stages that wrote them reported it; extractions (JSON, HTML)
    // name paths and headings, not lines, unless cut to the emergency form.
    const lineSpans = processors[attempt.kind].lineShaped || attempt.level === 'emergency';
    return {
      output,
      outcome: 'compressed',
      kind: attempt.kind,
      level: attempt.level,
      tokensIn: facts.tokensIn,
      tokensOut,
      bytesIn: facts.bytesIn,
      bytesOut,
      omitted,
      omissions: lineSpans ? attempt.output.omissions.map(({ at: _at, ...omission }) => omission) : [],
      id,
      backend: facts.backend,
      ms: this.now() - facts.started,
      ...(notKept ? { levelNotKept: notKept } : {}),
      ...(facts.codesRemoved ? { codesRemoved: true as const } : {}),
      ...(attempt.timedOut ? { timedOut: true as const } : {}),
    };
  }
}

/** A marker naming its own line `was` (0-based), moved to line `now`: `[… line 12: …]` becomes `[… line 9: …]`. */
function ownNumber(marker: string, was: number, now: number): string {
  const head = `[… ${lineSpan(was, was + 1)}`;
  return marker.startsWith(head) ? `[… ${lineSpan(now, now + 1)}${marker.slice(head.length)}` : marker;
}

/** A compressed text and its notice: each ends with a line break. */
function withNotice(text: string, notice: string): string {
  return `${withNewline(text)}${notice}\n`;
}

/** Why a level the caller forced is not the one applied (or was cut further), if so. */
function levelNotKept(requested: ResolvedOptions['level'], attempt: Attempt): LevelNotKept | undefined {
  if (requested === 'auto' || (attempt.level === requested && !attempt.cut)) return undefined;
  const gentlerApplied = LEVELS.indexOf(attempt.level) < LEVELS.indexOf(requested);
  return { requested, reason: gentlerApplied ? 'preserved-item-lost' : 'over-max-tokens' };
}

/** A squeeze instance: options resolved once, state (store, recent results) kept across results. */
export function createSqueeze(setup: SqueezeSetup = {}): Squeeze {
  return new Pipeline(setup);
}

/** A pipeline for compressAsync's worker thread (worker.ts). */
export function createWorkerPipeline(setup: SqueezeSetup): WorkerPipeline {
  return new Pipeline(setup);
}

/** One-shot compression with a fresh instance. */
export function compress(text: string, setup: SqueezeSetup & CallOptions = {}): CompressResult {
  const { isError, spill, ...rest } = setup;
  return createSqueeze(rest).compress(text, { isError, spill });
}
