// The full output behind the harness's shell cap. DSH's local executor keeps
// only the last 64,000 bytes of each stream of a `bash` (or `pwsh`) call and
// appends `[output truncated; full output: PATH]` to that stream's section
// (the wording dsh-tool-bash's README fixes); the whole stream stays in PATH,
// a spill file dsh-subprocess-local writes as
// `<os.tmpdir()>/dsh-subprocess-XXXXXX/dsh-subprocess-<pid>-<n>-<hex>-<stream>.log`
// (a 0700 folder per harness process, 0600 files). When that file is provably
// the harness's own spill of this very result, the text handed to squeeze is
// the result as the harness would have rendered it uncut; anything else keeps
// the harness's text, with a line saying why.
//
// Left alone on purpose: `job_output`'s `[some output was dropped from memory;
// full output: …]` (the file holds the whole stream, the result only the
// delta since the last read, so swapping them would change what was asked),
// and the terminal tools, which name no file.
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { LATE, within } from '../../store/index.js';
import { count, lineCount } from '../../text/strings.js';

/** The tools whose results carry the notice: dsh-tool-bash and dsh-tool-pwsh render it the same way. */
export const FULL_OUTPUT_TOOLS: ReadonlySet<string> = new Set(['bash', 'pwsh']);

const NOTICE = /\n\[output truncated; full output: ([^\n]*)\](?=\n|$)/g;
const UNAVAILABLE = '(unavailable)';
const SPILL_DIR = /^dsh-subprocess-[A-Za-z0-9]{6}$/;
const SPILL_FILE = /^dsh-subprocess-(\d+)-\d+-[0-9a-f]+-(stdout|stderr)\.log$/;
const STDERR_HEADER = '[stderr]\n';
/**
 * What follows a notice the harness wrote: nothing, the stderr section, or a
 * status marker (sandbox, timeout, signal, exit code). A notice line inside
 * the output itself (a command printing an old transcript) is followed by
 * more output and is not taken for one.
 */
const AFTER_NOTICE = /^(?:$|\n\[stderr\]\n|\n\[(?:sandbox|timed out|killed by signal|exit code)\b)/;

/**
 * Longest wait for one spill file: a file system that never answers (a hung
 * network mount) must not hold the tool call; past it the harness's text is
 * compressed, and the ledger says so.
 */
export const FULL_OUTPUT_DEADLINE_MS = 2000;

export interface FullOutputOptions {
  /** Files larger than this are not read; 0 turns the whole feature off. */
  readonly maxBytes: number;
  readonly deadlineMs?: number;
  /** Reads a spill file (tests stand in a file system that never answers). */
  readonly read?: (path: string, maxBytes: number) => Promise<Read>;
  /** The harness's temp root and process (tests point them elsewhere). */
  readonly tmpdir?: string;
  readonly pid?: number;
}

/**
 * `text`: what to compress and store (the uncut result, or the harness's own
 * text when nothing could be read). `note`: one line for the model, either how
 * large the full output is or why it was not used.
 */
export interface FullOutput {
  readonly text: string;
  readonly note: string;
  readonly recovered: boolean;
  /** A spill file did not answer within this many milliseconds (its stream kept the harness's tail). */
  readonly lateMs?: number;
}

/** Why a path is not (provably) the harness's own spill file, or its stream label. */
function locate(path: string, options: FullOutputOptions): { stream: 'stdout' | 'stderr' } | { reason: string } {
  if (path === UNAVAILABLE) return { reason: 'the harness kept no full-output file' };
  if (!isAbsolute(path) || resolve(path) !== path) return { reason: `${path} is not a plain absolute path` };
  const folder = dirname(path);
  const file = SPILL_FILE.exec(basename(path));
  const root = options.tmpdir ?? tmpdir();
  const pid = options.pid ?? process.pid;
  // Another process's file (a remote or separate executor) is not this harness's spill.
  if (dirname(folder) !== root || !SPILL_DIR.test(basename(folder)) || file === null || Number(file[1]) !== pid) {
    return { reason: `${path} is outside this harness's temporary area` };
  }
  return { stream: file[2] as 'stdout' | 'stderr' };
}

export type Read = { text: string; bytes: number } | { reason: string };

/** Reads the spill file if it is a regular file (not a symlink) in a private folder, owned by this user, under the cap. */
async function readSpill(path: string, maxBytes: number): Promise<Read> {
  const uid = process.getuid?.();
  if (uid === undefined) return { reason: 'file owners cannot be checked on this platform' };
  try {
    const folder = await lstat(dirname(path));
    if (!folder.isDirectory() || folder.uid !== uid || (folder.mode & 0o077) !== 0) {
      return { reason: `${dirname(path)} is not a private folder of this user` };
    }
  } catch (error) {
    return { reason: `${dirname(path)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // O_NOFOLLOW: a symlink fails here instead of being followed (no check-then-use race).
    // O_NONBLOCK: a FIFO planted under the name opens at once (and is refused as not a file)
    // instead of waiting for a writer forever; a regular file reads the same.
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { reason: code === 'ELOOP' ? `${path} is a symlink` : `${path} cannot be read (${code ?? 'error'})` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { reason: `${path} is not a regular file` };
    if (stat.uid !== uid) return { reason: `${path} is not owned by this user` };
    if (stat.size > maxBytes)
      return { reason: `${path} holds ${count(stat.size)} bytes, over the ${count(maxBytes)}-byte cap` };
    const bytes = await handle.readFile();
    return { text: bytes.toString('utf8'), bytes: bytes.length };
  } catch (error) {
    return { reason: `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    await handle.close();
  }
}

/**
 * Where the tail the harness kept sits in `full`, or undefined when `full`
 * does not end with it. The kept bytes start anywhere, mid-line or
 * mid-character, so the tail's first line is left out of the comparison (for a
 * tail without a line break, its leading replacement characters: the decoder
 * turned each byte of a cut character into one).
 */
function keptSpan(full: string, tail: string): { bytes: number; fromLine: number } | undefined {
  const replaced = /^\uFFFD*/.exec(tail)![0].length;
  const cut = tail.indexOf('\n');
  const checked = cut === -1 ? tail.slice(replaced) : tail.slice(cut + 1);
  if (!full.endsWith(checked)) return undefined;
  const prefix = full.slice(0, full.length - checked.length);
  // With a line break the kept part starts on the prefix's last line; without, where the checked part starts.
  const startsLine = cut === -1 && (prefix === '' || prefix.endsWith('\n'));
  const fromLine = lineCount(prefix) + (startsLine ? 1 : 0);
  return { bytes: replaced + Buffer.byteLength(tail.slice(replaced), 'utf8'), fromLine };
}

interface Notice {
  readonly start: number;
  readonly end: number;
  readonly path: string;
}

/** Where the section a notice closes begins: the text start for stdout, after a `[stderr]` line for stderr. */
function sectionStarts(text: string, stream: 'stdout' | 'stderr', from: number, notice: Notice): number[] {
  if (stream === 'stdout') return [0];
  const starts: number[] = [];
  for (
    let i = text.indexOf(STDERR_HEADER, from);
    i !== -1 && i < notice.start;
    i = text.indexOf(STDERR_HEADER, i + 1)
  ) {
    if (i === 0 || text[i - 1] === '\n') starts.push(i + STDERR_HEADER.length);
  }
  return starts;
}

/** The earliest section start whose text the spill file ends with (the longest tail that matches). */
function matchSection(text: string, stream: 'stdout' | 'stderr', from: number, notice: Notice, full: string) {
  for (const start of sectionStarts(text, stream, from, notice)) {
    const span = keptSpan(full, text.slice(start, notice.start));
    if (span !== undefined) return { start, ...span };
  }
  return undefined;
}

interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** One truncated stream: the note's fact about it and, when its file checks out, the uncut section. */
async function recoverStream(
  text: string,
  notice: Notice,
  from: number,
  options: FullOutputOptions,
): Promise<{ fact: string; replacement?: Replacement; late?: true }> {
  const place = locate(notice.path, options);
  if ('reason' in place) return { fact: `full output not used: ${place.reason}` };
  const label = place.stream === 'stderr' ? 'full stderr' : 'full output';
  const deadlineMs = options.deadlineMs ?? FULL_OUTPUT_DEADLINE_MS;
  const read = await within((options.read ?? readSpill)(notice.path, options.maxBytes), deadlineMs);
  if (read === LATE)
    return { fact: `${label} not used: ${notice.path} did not answer within ${count(deadlineMs)} ms`, late: true };
  if ('reason' in read) return { fact: `${label} not used: ${read.reason}` };
  const section = matchSection(text, place.stream, from, notice, read.text);
  if (section === undefined)
    return { fact: `${label} not used: ${notice.path} does not end with the output the harness kept` };
  // Rendered as the harness renders an uncut stream: a separating newline only when the stream lacks one.
  const separator = read.text.endsWith('\n') && text[notice.end] === '\n' ? 1 : 0;
  return {
    fact: `${label}: ${count(read.bytes)} bytes, ${count(lineCount(read.text))} lines; the harness had kept the last ${count(section.bytes)} bytes, from line ${count(section.fromLine)}`,
    replacement: { start: section.start, end: notice.end + separator, text: read.text },
  };
}

/**
 * The uncut text of a shell result whose streams the harness truncated, or
 * undefined when there is nothing to do (another tool, no notice, feature off).
 */
export async function recoverFullOutput(
  toolName: string,
  text: string,
  options: FullOutputOptions,
): Promise<FullOutput | undefined> {
  if (options.maxBytes === 0 || !FULL_OUTPUT_TOOLS.has(toolName)) return undefined;
  const notices: Notice[] = [...text.matchAll(NOTICE)]
    .map((m) => ({ start: m.index, end: m.index + m[0].length, path: m[1]! }))
    .filter((notice) => AFTER_NOTICE.test(text.slice(notice.end, notice.end + 40)));
  if (notices.length === 0) return undefined;

  const replacements: Replacement[] = [];
  const facts: string[] = [];
  let late = false;
  let from = 0;
  for (const notice of notices) {
    const fact = await recoverStream(text, notice, from, options);
    facts.push(fact.fact);
    if (fact.replacement) replacements.push(fact.replacement);
    late ||= fact.late === true;
    from = notice.end;
  }
  let uncut = text;
  for (const r of replacements.reverse()) uncut = uncut.slice(0, r.start) + r.text + uncut.slice(r.end);
  const recovered = replacements.length > 0;
  const fallback = recovered ? '' : "; compressing the harness's tail";
  return {
    text: uncut,
    note: `[${facts.join('; ')}${fallback}]`,
    recovered,
    ...(late ? { lateMs: options.deadlineMs ?? FULL_OUTPUT_DEADLINE_MS } : {}),
  };
}
