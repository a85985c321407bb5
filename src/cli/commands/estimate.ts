// `squeeze estimate`: the tokens a text would cost in the model's context.
import { createEstimator } from '../../engine/index.js';
import { oneOf, positionals } from '../args.js';
import type { Command } from '../command.js';
import { ExitCode } from '../errors.js';
import { decodeUtf8, readInput } from '../io.js';

const TOKENIZERS = ['deepseek-v3', 'o200k'] as const;

export const estimateCommand: Command = {
  name: 'estimate',
  help: `Usage: squeeze estimate [FILE|-] [--tokenizer deepseek-v3|o200k] [--json]

Prints the estimated token count of FILE (or standard input) as a number,
or as {"tokens": N} with --json.

  --tokenizer NAME  whose tokens to estimate (default deepseek-v3)
  --json            print a JSON object

Bytes that are not UTF-8 are estimated as replacement characters (with a warning).
`,
  options: {
    tokenizer: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(parsed, io) {
    const [file] = positionals(parsed, 1, 'estimate takes one FILE');
    const profile = oneOf(parsed.values, 'tokenizer', TOKENIZERS) ?? 'deepseek-v3';
    const { bytes, name } = await readInput(file, io);
    let text = decodeUtf8(bytes);
    if (text === null) {
      io.stderr(`squeeze estimate: ${name} is not valid UTF-8; estimating with its bad bytes as U+FFFD\n`);
      text = bytes.toString('utf8');
    }
    const tokens = createEstimator({ profile }).estimate(text);
    io.stdout(parsed.values.json ? `${JSON.stringify({ tokens })}\n` : `${tokens}\n`);
    return ExitCode.ok;
  },
};
