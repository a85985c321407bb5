// `ccr_retrieve` (docs/GLOSSARY.md, Retrieval tool), the tool that gives the model an
// original back, whole, as a line range or as the lines matching a pattern.
// It renders the original text verbatim; unknown and expired ids fail with the
// store's message, which tells the model what to do instead. The store itself
// reports hits and misses to the ledger.
//
// The harness caps what a tool result may show (spill-policy's maxInlineBytes,
// 50,000 bytes in the shipped profile) by cutting out the middle. A retrieval
// is the one result that must not be cut so: past `pageBytes`, or past the
// loaded spill-policy's cap when that is smaller, it returns the whole lines
// that fit and a last line naming the range of the next page.
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import { RETRIEVE_TOOL } from './gate.js';
import type { Services } from './ports.js';
import { MAX_PATTERN_CHARS, type RetrieveResult } from '../../store/index.js';
import { count as thousands } from '../../text/strings.js';

export interface RetrieveToolOptions {
  /** Bytes a result may hold, page line included; 0: no paging (the harness's cap then applies). */
  readonly pageBytes: number;
  /** The harness's inline cap as loaded now (spill-policy's maxInlineBytes), when it can be read: pages stay under it. */
  readonly inlineCap?: () => number | undefined;
}

/** The plugin registry as far as it is read here: each loaded plugin's name and its fibers' configs. */
interface Registry {
  values(): Iterable<{ name?: string; fibers: Iterable<{ config?: unknown }> }>;
}

/**
 * The smallest maxInlineBytes of the loaded spill-policy plugins, read from
 * the harness's plugin registry (spill-policy exposes no service); undefined
 * when none is loaded or the registry is not what it was in 0.1.0-rc.8.
 */
export function spillPolicyCap(registry: unknown): number | undefined {
  let cap: number | undefined;
  try {
    for (const runtime of (registry as Registry).values()) {
      if (runtime.name !== 'spill-policy') continue;
      for (const fiber of runtime.fibers) {
        const max = (fiber.config as { maxInlineBytes?: unknown } | undefined)?.maxInlineBytes;
        if (typeof max === 'number' && Number.isSafeInteger(max) && max > 0) cap = Math.min(cap ?? max, max);
      }
    }
  } catch {
    return undefined;
  }
  return cap;
}

type Served = Extract<RetrieveResult, { ok: true }>;

/** The line that ends a page short of its range: what was shown and the range that asks for the rest. */
export function pageLine(result: Pick<Served, 'lines' | 'totalLines' | 'next' | 'cutLine'>): string | undefined {
  const { lines, totalLines, next, cutLine } = result;
  if (next === undefined && cutLine === undefined) return undefined;
  const last = lines.start + lines.count - 1;
  const shown = cutLine
    ? `line ${thousands(lines.start)} of ${thousands(totalLines)}, its first ${thousands(cutLine.shownBytes)} of ${thousands(cutLine.bytes)} bytes (a page holds no more)`
    : `lines ${thousands(lines.start)}–${thousands(last)} of ${thousands(totalLines)}`;
  const rest = next ? `; next: range {"start": ${next.start}, "count": ${next.count}}` : '';
  return `[${shown}${rest}]`;
}

/** The longest page line, so a page leaves room for it. */
function pageLineBytes(): number {
  const big = Number.MAX_SAFE_INTEGER;
  const line = pageLine({
    lines: { start: big, count: 1 },
    totalLines: big,
    next: { start: big, count: big },
    cutLine: { shownBytes: big, bytes: big },
  });
  return Buffer.byteLength(`\n${line}`, 'utf8');
}

export function createRetrieveTool(services: Services, options: RetrieveToolOptions): ToolDefinition {
  const reserve = pageLineBytes();
  /** Bytes of original text a page holds now: under the configured size and the loaded spill-policy's cap. */
  const pageTextBytes = (): number | undefined => {
    if (options.pageBytes <= 0) return undefined;
    const cap = options.inlineCap?.();
    return Math.max(1, Math.min(options.pageBytes, cap ?? options.pageBytes) - reserve);
  };
  return defineTool({
    name: RETRIEVE_TOOL,
    description:
      'Return the original of a tool result that squeeze compressed, byte for byte. Pass the id from its ' +
      '<<<CCR:id|type|size>>> marker. For a large original ask for part of it: range {start, count} (lines ' +
      'numbered from 1, as in omission markers like "[… lines 120–480 (361) …]") and/or grep (an RE2 regular ' +
      'expression: no backreferences or lookaround; only matching lines, numbered). Set literal to true to ' +
      'match grep as plain text.' +
      (options.pageBytes <= 0 ? '' : ' A large result comes in pages: the last line names the range of the next.'),
    parameters: {
      hash: { type: 'string', required: true, description: 'The 24 hex digits after <<<CCR: (or the whole marker)' },
      range: {
        type: 'object',
        description:
          'Only these lines: start (the first line is 1; default 1) and count (default: to the end). ' +
          'A marker "[… lines 120–480 (361) …]" is range {"start": 120, "count": 361}.',
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
          /** The original's bytes served (a page of them), or the matching lines. */
          text: { type: 'string', required: true },
          /** The last line shown when a page stops short of the range. */
          page: { type: 'string' },
        },
        additionalProperties: false,
      },
      render: (_args, value) => [
        {
          type: 'text',
          text:
            value.page === undefined
              ? value.text
              : `${value.text}${value.text.endsWith('\n') ? '' : '\n'}${value.page}`,
        },
      ],
    },
    isConcurrencySafe: () => true,
    async execute(args) {
      const grep = args.grep !== undefined;
      const maxBytes = grep ? undefined : pageTextBytes();
      const result = await services.retrieve({
        id: args.hash,
        ...(args.range ? { range: args.range } : {}),
        ...(grep ? { grep: args.grep, literal: args.literal === true, ignoreCase: args.ignoreCase === true } : {}),
        // Matching lines are bounded by the search itself (under the cap).
        ...(maxBytes !== undefined ? { maxBytes } : {}),
      });
      if (!result.ok) throw new Error(result.message);
      const page = pageLine(result);
      return {
        hash: result.id,
        type: result.type,
        size: result.size,
        text: result.text,
        ...(page === undefined ? {} : { page }),
      };
    },
  });
}
