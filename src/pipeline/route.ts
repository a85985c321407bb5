// Routing: the content kind of a result, from the caller's say-so, the tool
// name, or the processors' own sniffing (highest confidence wins).
import { processors } from '../processors/index.js';
import type { ContentKind } from '../types.js';

/** Tools whose output has a known shape, from the processors' own `tools` lists. */
const TOOL_KINDS: ReadonlyMap<string, ContentKind> = new Map(
  Object.values(processors).flatMap((processor) => (processor.tools ?? []).map((tool) => [tool, processor.kind] as const)),
);

/** Below this confidence nobody claims the text and it is treated as a log (terminal output). */
const CLAIM = 0.5;

/** A file name with an extension (or a directory's trailing slash) at the end of a path. */
const FILE_NAME = /(?:[\w-]\.[A-Za-z][\w]{0,7}|\/)$/;

/**
 * Most of the first lines name files: the part before the first ':' for grep
 * hits, the whole line for listings. Log lines with timestamps fail this.
 */
function namesFiles(text: string, kind: ContentKind): boolean {
  const lines = text.split('\n', 50).filter((line) => line.trim() !== '' && line !== '--');
  const named = lines.filter((line) => {
    const path = kind === 'grep' ? line.replace(/^([A-Za-z]:)?([^:]*).*$/s, '$1$2') : line.trimEnd();
    return FILE_NAME.test(path);
  });
  return lines.length > 0 && named.length >= 0.9 * lines.length;
}

export function route(text: string, toolName: string | undefined, kind: ContentKind | 'auto'): ContentKind {
  if (kind !== 'auto') return kind;
  const byTool = toolName === undefined ? undefined : TOOL_KINDS.get(toolName);
  if (byTool && processors[byTool].sniff(text) >= CLAIM) return byTool;
  let best: ContentKind = 'log';
  let bestScore = CLAIM;
  for (const processor of Object.values(processors)) {
    // Without the tool's name, timestamps (12:03:44) and paths in logs look like
    // grep hits and listings: those kinds must be near-certain to win.
    const shapeOnly = processor.kind === 'grep' || processor.kind === 'listing';
    const score = shapeOnly
      ? processor.sniff(text) >= 0.95 && namesFiles(text, processor.kind) ? 0.95 : 0
      : processor.sniff(text);
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
  listing: 'log',
  table: 'log',
  html: 'text',
  log: 'text',
  text: null,
};

export function fallbackKind(kind: ContentKind): ContentKind | null {
  return FALLBACK[kind];
}
