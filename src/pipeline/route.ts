// Routing: the content kind of a result, in this order of trust: the caller's
// say-so, the host tool's name (processors' `tools`), the shell command line
// that produced it (processors' `commands` and `fileExtensions`), then the
// processors' own sniffing. Text nobody claims gets the text processor's
// gentle treatment: sampling lines is only for what is known to be a log.
import { processors } from '../processors/index.js';
import type { TextAnalysis } from '../engine/index.js';
import type { ContentKind, Processor } from '../types.js';
import { operands, printedFiles, producingCommand } from './command.js';

const TABLE: readonly Processor[] = Object.values(processors);
/** Processors whose claim outranks the tool's and the command's (Processor.claimsFirst). */
const FIRST: readonly Processor[] = TABLE.filter((processor) => processor.claimsFirst);

/** Tools whose output has a known shape, from the processors' own `tools` lists. */
const TOOL_KINDS: ReadonlyMap<string, ContentKind> = new Map(
  TABLE.flatMap((processor) => Object.keys(processor.tools ?? {}).map((tool) => [tool, processor.kind] as const)),
);

/** Commands as word lists ('git diff' -> ['git', 'diff']), longest first so the most specific wins. */
const COMMANDS: readonly { readonly words: readonly string[]; readonly kind: ContentKind }[] = TABLE.flatMap(
  (processor) => (processor.commands ?? []).map((command) => ({ words: command.split(/\s+/), kind: processor.kind })),
).sort((a, b) => b.words.length - a.words.length);

const EXTENSION_KINDS: ReadonlyMap<string, ContentKind> = new Map(
  TABLE.flatMap((processor) =>
    (processor.fileExtensions ?? []).map((ext) => [ext.toLowerCase(), processor.kind] as const),
  ),
);

/** Confidence a sniff needs to claim a text by itself, or to confirm a tool's claim. */
const CLAIM = 0.5;

/**
 * Confidence that confirms a command's claim: low, since the command already
 * said what the text is; it only keeps an empty text or an error message from
 * a processor that expects its shape (`git diff` that printed `fatal: ...`).
 */
const COMMAND_FLOOR = 0.2;

/** The text nobody claims goes to this processor. */
const UNCLAIMED: ContentKind = 'text';

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** A command line's claim: the kind of its producing program's output, and whether a grep filtered it. */
export interface CommandClaim {
  readonly kind: ContentKind;
  /** Only some lines remain: a document (JSON, HTML, code) cut by a grep is no longer one. */
  readonly grepped: boolean;
  /** The kind is the printed files' (by their extension), not the producing program's. */
  readonly byFile: boolean;
}

/** The kind of output a host tool returns, when a processor claims the tool (`grep`, `read`). */
export function claimOfTool(toolName: string): ContentKind | null {
  return TOOL_KINDS.get(toolName) ?? null;
}

/** The command line's producing program prints files (`cat build.log`, `tail -n 50 app.log`): their contents. */
export function printsFiles(line: string): boolean {
  const command = producingCommand(line);
  return command !== null && printedFiles(command).length > 0;
}

/** The kind a shell command line's output has, by its producing program; null when no processor claims it. */
export function claimOfCommand(line: string): CommandClaim | null {
  const command = producingCommand(line);
  if (command === null) return null;
  const files = printedFiles(command);
  let kind: ContentKind | null = null;
  if (files.length > 0) {
    const kinds = new Set(files.map((file) => EXTENSION_KINDS.get(extensionOf(file)) ?? null));
    kind = kinds.size === 1 ? [...kinds][0]! : null;
  } else {
    const words = [command.program, ...operands(command.program, command.args)];
    kind = COMMANDS.find((entry) => entry.words.every((word, i) => words[i] === word))?.kind ?? null;
  }
  return kind === null ? null : { kind, grepped: command.grepped, byFile: files.length > 0 };
}

function bySniffing(analysis: TextAnalysis): ContentKind {
  let best = UNCLAIMED;
  let bestScore = CLAIM;
  for (const processor of TABLE) {
    // Without the tool's name, timestamps (12:03:44) and paths in logs look like
    // grep hits and listings: those kinds must be near-certain to win (their
    // sniffers count only lines naming files in their own shapes).
    const sniffed = processor.sniff(analysis);
    const score = processor.pathLines === undefined ? sniffed : sniffed >= 0.95 ? 0.95 : 0;
    if (score > bestScore) {
      best = processor.kind;
      bestScore = score;
    }
  }
  return best;
}

export interface RouteHints {
  /** 'auto' to decide here; anything else is the caller's say-so. */
  readonly kind: ContentKind | 'auto';
  readonly toolName?: string | undefined;
  /** The shell command line that printed the text. */
  readonly command?: string | undefined;
}

/** The kind of the analysed text: the sniffers read its head lines and features, never the text again. */
export function route(analysis: TextAnalysis, hints: RouteHints): ContentKind {
  if (hints.kind !== 'auto') return hints.kind;
  const first = claimedFirst(analysis, hints);
  if (first !== null) return first;
  const byTool = hints.toolName === undefined ? undefined : TOOL_KINDS.get(hints.toolName);
  if (byTool && processors[byTool].sniff(analysis) >= CLAIM) return byTool;
  const byCommand = hints.command === undefined ? null : claimOfCommand(hints.command);
  // A program's usual output gives way to a document the text certainly is; a file's extension does not
  // (`cat views/page.php` opening with `<!DOCTYPE html>` is still PHP source).
  if (byCommand && !byCommand.byFile && processors[byCommand.kind].lineShaped) {
    const document = certainDocument(analysis);
    if (document !== null) return document;
  }
  // Lines a grep picked keep a line-record kind (a log, a listing) only if they still look like it.
  if (byCommand && processors[byCommand.kind].sniff(analysis) >= (byCommand.grepped ? CLAIM : COMMAND_FLOOR))
    return byCommand.kind;
  return bySniffing(analysis);
}

/**
 * The document kind a text certainly is (a sniff of 1: the whole text parses
 * as JSON, an HTML doctype), or null. It outranks a program whose usual output
 * is line records: `sqlite3 -json` and `npm ls --json` print one JSON document,
 * whose records a table or listing would split at its commas.
 */
function certainDocument(analysis: TextAnalysis): ContentKind | null {
  for (const processor of TABLE)
    if (!processor.lineShaped && !processor.claimsFirst && processor.sniff(analysis) >= 1) return processor.kind;
  return null;
}

/**
 * The kind a `claimsFirst` processor takes the text for before the tool and
 * the command are asked (binary data), or null; null too when the caller named the kind.
 */
export function claimedFirst(analysis: TextAnalysis, hints: Pick<RouteHints, 'kind'>): ContentKind | null {
  if (hints.kind !== 'auto') return null;
  for (const processor of FIRST) if (processor.sniff(analysis) >= CLAIM) return processor.kind;
  return null;
}

/** Where a processor that cannot handle the text sends it next (its `fallback`); text is the last resort. */
export function fallbackKind(kind: ContentKind): ContentKind | null {
  return kind === UNCLAIMED ? null : (processors[kind].fallback ?? UNCLAIMED);
}
