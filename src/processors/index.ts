// The processor table: one processor per content kind, all of one shape
// (src/types.ts). Adding a kind is one file and one row here.
import type { ContentKind, Processor } from '../types.js';
import { codeProcessor } from './code.js';
import { diffProcessor } from './diff.js';
import { gitlogProcessor } from './gitlog.js';
import { grepProcessor } from './grep.js';
import { htmlProcessor } from './html.js';
import { jsonProcessor } from './json.js';
import { listingProcessor } from './listing.js';
import { logProcessor } from './log.js';
import { tableProcessor } from './table.js';
import { textProcessor } from './text.js';

export const processors: Record<ContentKind, Processor> = {
  log: logProcessor,
  json: jsonProcessor,
  html: htmlProcessor,
  text: textProcessor,
  grep: grepProcessor,
  listing: listingProcessor,
  table: tableProcessor,
  code: codeProcessor,
  diff: diffProcessor,
  gitlog: gitlogProcessor,
};

export { ProcessorError, JsonInputError } from './errors.js';
