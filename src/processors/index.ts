// The processor table: one processor per content kind, all of one shape
// (src/types.ts). Adding a kind is its folder, its name in CONTENT_KINDS
// (src/types.ts) and one row here; nothing else switches on kind names.
import type { ContentKind, Processor } from '../types.js';
import { binaryProcessor } from './binary/index.js';
import { codeProcessor } from './code/index.js';
import { diffProcessor } from './diff/index.js';
import { gitlogProcessor } from './gitlog/index.js';
import { grepProcessor } from './grep/index.js';
import { htmlProcessor } from './html/index.js';
import { jsonProcessor } from './json/index.js';
import { listingProcessor } from './listing/index.js';
import { logProcessor } from './log/index.js';
import { tableProcessor } from './table/index.js';
import { textProcessor } from './text/index.js';

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
  binary: binaryProcessor,
};

export { ProcessorError, JsonInputError } from './errors.js';
