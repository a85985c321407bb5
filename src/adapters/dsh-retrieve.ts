// Seed 002 section 6: `ccr_retrieve`, the tool that gives the model an
// original back, whole, as a line range or as the lines matching a pattern.
// It renders the original text verbatim; unknown and expired ids fail with an
// error that tells the model what to do instead.
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { Lookup } from '../store/types.js';
import { RETRIEVE_TOOL } from './dsh-gate.js';
import { lines, type Ledger } from './dsh-ledger.js';
import type { RetrieveQuery, Services } from './dsh-ports.js';

/** Why a retrieval failed, in words the model can act on. */
export function missMessage(id: string, reason: 'expired' | 'unknown', ttlSeconds: number): string {
  return reason === 'expired'
    ? `No original under ${id} any more: it expired (kept ${ttlSeconds} s after it was stored). Re-run the original tool call to get the output again.`
    : `No original is stored under ${id} (ids are the 24 hex digits of a <<<CCR:...>>> marker, matched exactly). Re-run the original tool call to get the output again.`;
}

export function createRetrieveTool(services: Services, ledger: Ledger, ttlSeconds: number): ToolDefinition {
  return defineTool({
    name: RETRIEVE_TOOL,
    description:
      'Return the original of a tool result that squeeze compressed, byte for byte. Pass the id from its ' +
      '<<<CCR:id|type|size>>> marker. For a large original ask for part of it: range {start, count} (0-based ' +
      'lines) and/or grep (a regular expression; only matching lines).',
    parameters: {
      hash: { type: 'string', required: true, description: 'The 24 hex digits after <<<CCR:' },
      range: {
        type: 'object',
        description: 'Only these lines: start (0-based) and count; bounds past the end are clamped.',
        properties: { start: { type: 'integer', required: true }, count: { type: 'integer', required: true } },
        additionalProperties: false,
      },
      grep: { type: 'string', description: 'Only the lines matching this pattern.' },
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
      const lookup: Lookup = services.store.get(args.hash);
      if (!lookup.found) {
        ledger.write(lines.miss(args.hash, lookup.reason));
        throw new Error(missMessage(args.hash, lookup.reason, ttlSeconds));
      }
      ledger.write(lines.retrieved(args.hash));
      const query: RetrieveQuery = {
        ...(args.range ? { range: args.range } : {}),
        ...(args.grep !== undefined ? { grep: args.grep } : {}),
      };
      const { entry } = lookup;
      return { hash: entry.id, type: entry.type, size: entry.size, text: services.retrieve(entry.text, query) };
    },
  });
}
