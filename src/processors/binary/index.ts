// The binary processor: output that is not text at all (an executable, an
// image, a database or archive printed by `cat`, `git show HEAD:logo.png`).
// Nothing in it reads as lines and every sample of it is noise to the model,
// so it shows as one marker: how much there is and, when its first bytes
// spell a format's name (`ELF`, `PNG`, `SQLite format 3`), that name. The
// original is stored whole like any other.
import type { TextAnalysis } from '../../engine/index.js';
import type { Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import { checkDeadline, ProcessorError } from '../errors.js';
import { count, linesOmission, omittedLines } from '../markers.js';

/** How far a NUL is looked for: git's own test for binary content (buffer_is_binary) reads 8,000 bytes. */
const HEAD_CHARS = 8000;
/** Characters of the head a format's name is read from (magic numbers sit in the first few bytes). */
const MAGIC_CHARS = 16;
/** Printable ASCII runs this long or longer in the first bytes name the format: `ELF`, `PNG`, `PK`. */
const NAME_CHARS = 2;

/** A NUL character in the head: text tools never print one, binary formats nearly always do. */
function isBinary(text: string): boolean {
  return text.slice(0, HEAD_CHARS).includes('\0');
}

/** The printable runs of the first bytes (`\x7fELF\x02` -> `ELF`), when they spell something. */
function formatName(text: string): string | null {
  const runs = text.slice(0, MAGIC_CHARS).match(/[\x21-\x7e][\x20-\x7e]*/g) ?? [];
  const name = runs.find((run) => run.trim().length >= NAME_CHARS)?.trim();
  return name ?? null;
}

function process(input: ProcessorInput): ProcessorOutput {
  checkDeadline('binary', input.expired);
  if (!isBinary(input.text)) throw new ProcessorError('binary', 'no NUL character in its head: not binary data');
  const lines = input.analysis.lines.count;
  const name = formatName(input.text);
  const what = `binary data, ${count(input.text.length)} characters${name === null ? '' : `, starts with "${name}"`}`;
  return {
    text: omittedLines(0, lines, what),
    omitted: { 'binary data (lines)': lines },
    omissions: [linesOmission(0, lines)],
  };
}

function sniff(analysis: TextAnalysis): number {
  return isBinary(analysis.text) ? 1 : 0;
}

export const binaryProcessor: Processor = {
  kind: 'binary',
  lineShaped: false,
  claimsFirst: true,
  sniff,
  process,
};
