// What `squeeze compress` prints for a result: the output on stdout (or one
// JSON object), a notice on stderr saying how it went and the way back.
import type { CompressResult } from '../../pipeline/result.js';
import { levelNotKeptText } from '../../pipeline/level-note.js';
import type { cliRetrieval } from '../../store/cli-retrieval.js';
import { count as formatCount } from '../../text/strings.js';
import type { CliIo } from '../io.js';

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

/** Prints `result` (and why its original could not be stored, when so); `cli` is how the notice named the store. */
export function report(
  result: CompressResult,
  json: boolean,
  storeError: string | undefined,
  cli: ReturnType<typeof cliRetrieval>,
  io: CliIo,
): void {
  if (json) {
    io.stdout(asJson(result, storeError));
    return;
  }
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
