// Routing: the content kind of a result, from the caller's say-so, the tool
// name, or the processors' own sniffing (highest confidence wins).
import { processors } from '../processors/index.js';
import type { ContentKind } from '../types.js';

/** Tools whose output has a known shape (seed 002's name table, by content kind). */
const TOOL_KINDS: Record<string, ContentKind> = {
  grep: 'grep',
  search: 'grep',
  glob: 'paths',
  list: 'paths',
};

/** Below this confidence nobody claims the text and it is treated as a log (terminal output). */
const CLAIM = 0.5;

export function route(text: string, toolName: string | undefined, kind: ContentKind | 'auto'): ContentKind {
  if (kind !== 'auto') return kind;
  const byTool = toolName === undefined ? undefined : TOOL_KINDS[toolName];
  if (byTool && processors[byTool].sniff(text) >= CLAIM) return byTool;
  let best: ContentKind = 'log';
  let bestScore = CLAIM;
  for (const processor of Object.values(processors)) {
    const score = processor.sniff(text);
    if (score > bestScore) {
      best = processor.kind;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Where a processor that cannot handle the text sends it next: invalid JSON and
 * unusual grep/listing shapes go the log way, unreliable HTML and logs the
 * conservative text way (seed 000); text is the last resort.
 */
const FALLBACK: Record<ContentKind, ContentKind | null> = {
  json: 'log',
  grep: 'log',
  paths: 'log',
  html: 'text',
  log: 'text',
  text: null,
};

export function fallbackKind(kind: ContentKind): ContentKind | null {
  return FALLBACK[kind];
}
