// The processor table: one processor per content kind. The log processor is
// the lead's; until it lands the table is Partial and the pipeline routes
// logs to the text processor.
import type { ContentKind, Processor } from '../types.js';
import { grepProcessor } from './grep.js';
import { htmlProcessor } from './html.js';
import { jsonProcessor } from './json.js';
import { pathsProcessor } from './paths.js';
import { textProcessor } from './text.js';

export const processors: Partial<Record<ContentKind, Processor>> = {
  json: jsonProcessor,
  html: htmlProcessor,
  text: textProcessor,
  grep: grepProcessor,
  paths: pathsProcessor,
};

export { ProcessorError, JsonInputError } from './errors.js';
