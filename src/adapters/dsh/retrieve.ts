// `ccr_retrieve` (docs/GLOSSARY.md, Retrieval tool), the tool that gives the model an
// original back, whole, as a line range or as the lines matching a pattern.
// It renders the original text verbatim; unknown and expired ids fail with the
// store's message, which tells the model what to do instead. The store itself
// reports hits and misses to the ledger.
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import { RETRIEVE_TOOL } from './gate.js';
import type { Services } from './ports.js';
import { MAX_PATTERN_CHARS } from '../../store/index.js';

export function createRetrieveTool(services: Services): ToolDefinition {
  return defineTool({
    name: RETRIEVE_TOOL,
    description:
      'Return the original of a tool result that squeeze compressed, byte for byte. Pass the id from its ' +
      '<<<CCR:id|type|size>>> marker. For a large original ask for part of it: range {start, count} (0-based ' +
      'lines) and/or grep (an RE2 regular expression: no backreferences or lookaround; only matching lines, ' +
      'numbered). Set literal to true to match grep as plain text.',
    parameters: {
      hash: { type: 'string', required: true, description: 'The 24 hex digits after <<<CCR:' },
      range: {
        type: 'object',
        description: 'Only these lines: start (0-based, default 0) and count (default: to the end); bounds past the end are clamped.',
        properties: { start: { type: 'integer' }, count: { type: 'integer' } },
        additionalProperties: false,
      },
      grep: {
        type: 'string',
        description: `Only the lines matching this RE2 regular expression (at most ${MAX_PATTERN_CHARS} characters; shown with their 1-based line numbers).`,
      },
      literal: { type: 'boolean', description: 'Match grep as plain text, not as a pattern (default false).' },
      ignoreCase: { type: 'boolean', description: 'Match grep regardless of case (default false).' },
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          hash: { type: 'string', required: true },
          type: { type: 'string', required: true },
          size: { type: 'integer', required: true },
          text: { type: 'string', required: true },
        },
        additionalProperties: false,
      },
      render: (_args, value) => [{ type: 'text', text: value.text }],
    },
    isConcurrencySafe: () => true,
    async execute(args) {
      const result = await services.retrieve({
        id: args.hash,
        ...(args.range ? { range: args.range } : {}),
        ...(args.grep !== undefined ? { grep: args.grep, literal: args.literal === true, ignoreCase: args.ignoreCase === true } : {}),
      });
      if (!result.ok) throw new Error(result.message);
      return { hash: result.id, type: result.type, size: result.size, text: result.text };
    },
  });
}
