// The measures both tools are judged by, the same for each: squeez's token
// metric and quality rule (as its benchmark states them), and two of
// squeeze's: lines that are not in the input, and error lines kept.
import type { Scenario } from './scenarios.js';

/** squeez's token metric: UTF-8 bytes / 4, rounded down. */
export const bytesOver4 = (text: string): number => Math.floor(Buffer.byteLength(text, 'utf8') / 4);

// SGR colour and cursor codes: formatting, not content, on either side of a comparison.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const plain = (line: string): string => (line.includes('\u001b') ? line.replace(ANSI, '') : line).trimEnd();

const linesOf = (text: string): string[] => text.split(/\r?\n/).map(plain);

const DIAGNOSTIC = ['error', 'warning', 'failed', 'fatal', 'panic', 'exception'];
const NOISE = new Set(['the', 'and', 'for', 'this', 'that', 'with', 'from', 'into', 'was']);
const wordAt = (line: string, word: string): boolean => {
  const at = line.indexOf(word);
  if (at < 0) return false;
  const alnum = (c: string | undefined) => c !== undefined && /[a-z0-9]/i.test(c);
  return !alnum(line[at - 1]) && !alnum(line[at + word.length]);
};

/**
 * squeez's signal terms: the distinct words (4+ characters, not all digits, not
 * filler) of the input's diagnostic lines, lowercased; a lone path is no diagnostic.
 */
function signalTerms(input: string): Set<string> {
  const terms = new Set<string>();
  for (const line of input.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.includes(' ') && (trimmed.startsWith('./') || trimmed.startsWith('/'))) continue;
    const lower = line.toLowerCase();
    if (!DIAGNOSTIC.some((word) => wordAt(lower, word))) continue;
    for (const raw of line.split(/\s+/)) {
      const word = raw.replace(/^[^\p{L}\p{N}/._:[]+|[^\p{L}\p{N}/._:[]+$/gu, '').toLowerCase();
      if (word.length >= 4 && !/^\d+$/.test(word) && !NOISE.has(word)) terms.add(word);
    }
  }
  return terms;
}

/**
 * squeez's quality score: 0 when the output is empty or lacks a required string;
 * otherwise (signal mode) the share of signal terms the output still holds, 1
 * when the input has none. It passes at 0.5.
 */
export function quality(scenario: Scenario, input: string, output: string): number {
  if (output.length === 0) return 0;
  if (scenario.required.some((s) => !output.includes(s))) return 0;
  if (scenario.quality === 'keywords') return 1;
  const terms = signalTerms(input);
  if (terms.size === 0) return 1;
  const lower = output.toLowerCase();
  let kept = 0;
  for (const term of terms) if (lower.includes(term)) kept++;
  return kept / terms.size;
}

/** An input line an output line shows, with a count of repeats next to it (`[×N …] line` or `line [×N]`). */
function collapsedLine(line: string): string | null {
  const before = /^\[×[^\]]*\] (.*)$/.exec(line);
  if (before) return before[1]!;
  const after = /^(.*?)\s+\[×\d[\d,]*\]$/.exec(line);
  return after ? after[1]! : null;
}

// A note standing inside a line for characters cut out of it.
const INNER_NOTE = /\[(?:…|\.\.\.)[^\]]*\]/g;

/** Whether the pieces of a line with cut-out notes occur, in order, in one input line. */
function cutFrom(line: string, inputLines: readonly string[]): boolean {
  const parts = line.split(INNER_NOTE).filter((p) => p.length > 0);
  if (parts.length === 0) return false;
  return inputLines.some((source) => {
    let from = 0;
    for (const part of parts) {
      const at = source.indexOf(part, from);
      if (at < 0) return false;
      from = at + part.length;
    }
    return true;
  });
}

/**
 * Output lines that are neither an input line (modulo colour codes and trailing
 * blanks) nor a marker: a whole-line note (`[…]`, `<<<…>>>`), an input line with
 * a repeat count, or an input line with characters cut out and a note in their place.
 */
export function inventedLines(input: string, output: string): string[] {
  const inputLines = linesOf(input);
  const known = new Set(inputLines);
  const invented: string[] = [];
  for (const line of linesOf(output)) {
    if (line.trim() === '' || known.has(line)) continue;
    if (/^\[.*\]$/.test(line) || /^<<<.*>>>$/.test(line)) continue;
    const collapsed = collapsedLine(line);
    if (collapsed !== null && known.has(collapsed)) continue;
    INNER_NOTE.lastIndex = 0;
    if (INNER_NOTE.test(line) && cutFrom(line, inputLines)) continue;
    invented.push(line);
  }
  return invented;
}

const ERROR_LINE = /\b(?:errors?|fatal|panic(?:ked)?|exception|failed|failures?)\b/i;
const COMMIT_LINE = /^([0-9a-f]{7,40}) (.+)$/;

/**
 * The input's error lines and how many of them the output shows whole (alone or
 * as a counted repeat). A one-line commit (`<hash> <subject>`) counts too when
 * the output shows its subject on another commit's line and names its hash (a
 * git log's repeated subject shown once, its later commits' hashes listed
 * beside it): the commit and its words are both there to find.
 */
export function errorLines(input: string, output: string): { total: number; kept: number } {
  const shown = new Set<string>();
  const subjects = new Set<string>();
  const outputLines = linesOf(output);
  for (const line of outputLines) {
    shown.add(line);
    const collapsed = collapsedLine(line);
    if (collapsed !== null) shown.add(collapsed);
    const commit = COMMIT_LINE.exec(line);
    if (commit) subjects.add(commit[2]!);
  }
  const named = (hash: string) => outputLines.some((line) => line.startsWith('[') && line.includes(hash));
  let total = 0;
  let kept = 0;
  for (const line of linesOf(input)) {
    if (!ERROR_LINE.test(line)) continue;
    total++;
    const commit = COMMIT_LINE.exec(line);
    if (shown.has(line) || (commit && subjects.has(commit[2]!) && named(commit[1]!))) kept++;
  }
  return { total, kept };
}
