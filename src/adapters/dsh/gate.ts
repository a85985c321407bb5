// The gate (docs/GLOSSARY.md): which tool results are looked at, by what size and
// type, and what happens to them. Pure: no harness, no store.
import { ccrType, type CcrType } from '../../index.js';
import type { PluginConfig } from './config.js';

/** A content block as the harness hands it over; only `text` blocks are read. */
export interface Block {
  readonly type: string;
  readonly text?: unknown;
}

/** The text of an all-text content list, blocks newline-joined; undefined if any block is not text. */
export function plainText(content: readonly Block[]): string | undefined {
  const parts: string[] = [];
  for (const block of content) {
    if (block.type !== 'text' || typeof block.text !== 'string') return undefined;
    parts.push(block.text);
  }
  return parts.join('\n');
}

/** The gate's size: the UTF-8 byte length of the serialized content. */
export function contentBytes(content: readonly Block[]): number {
  return Buffer.byteLength(JSON.stringify(content), 'utf8');
}

/**
 * The size the gate compares: `contentBytes` exactly while it can matter, that
 * is up to `ceiling` (the largest limit the gate compares against). Serializing
 * never makes a text shorter, so once a lower bound (UTF-16 units, then the raw
 * UTF-8) is over the ceiling it gives the same verdict without serializing a
 * megabyte (6 ms).
 */
export function gateSize(content: readonly Block[], text: string, ceiling: number): number {
  const joins = Math.max(0, content.length - 1); // the joining newlines
  // Each UTF-16 unit is at least one UTF-8 byte: a long text is over the
  // ceiling without counting its bytes (a pass over 50 MB on the harness's thread).
  if (text.length - joins > ceiling) return text.length - joins;
  const raw = Buffer.byteLength(text, 'utf8') - joins;
  return raw > ceiling ? raw : contentBytes(content);
}

/** The largest size any step of the gate compares against. */
export function gateCeiling(config: GateConfig): number {
  const widest = Math.max(...Object.values(config.multipliers));
  return Math.max(
    config.inlineThresholdBytes,
    config.thresholdBytes * widest,
    config.autoExpand ? config.autoExpandLimitBytes : 0,
  );
}

export type GateVerdict =
  | { readonly action: 'pass'; readonly reason: PassReason }
  | { readonly action: 'store' | 'replace'; readonly type: CcrType };

export type PassReason = 'empty' | 'exempt' | 'failure' | 'not-target' | 'inline' | 'under-threshold';

export interface GateInput {
  readonly toolName: string;
  readonly isError: boolean;
  readonly text: string;
  readonly size: number;
}

/** The knobs the gate reads; the context engine opens it with threshold 0 and no auto-expand. */
export type GateConfig = Pick<
  PluginConfig,
  | 'exempt'
  | 'exclude'
  | 'targets'
  | 'compressFailures'
  | 'thresholdBytes'
  | 'inlineThresholdBytes'
  | 'autoExpand'
  | 'autoExpandLimitBytes'
  | 'multipliers'
>;

/** Our own retrieval tool: never compressed, whatever `exempt` says (a retrieval must return the original). */
export const RETRIEVE_TOOL = 'ccr_retrieve';

/** The gate's steps, in order. */
export function gate(input: GateInput, config: GateConfig): GateVerdict {
  if (input.text.length === 0) return { action: 'pass', reason: 'empty' };
  // The pipeline's `exclude` and the gate's `exempt` mean the same here: never touched.
  if (
    input.toolName === RETRIEVE_TOOL ||
    config.exempt.includes(input.toolName) ||
    config.exclude.includes(input.toolName)
  ) {
    return { action: 'pass', reason: 'exempt' };
  }
  if (input.isError && !config.compressFailures) return { action: 'pass', reason: 'failure' };
  if (!config.targets.includes(input.toolName)) return { action: 'pass', reason: 'not-target' };
  if (input.size <= config.inlineThresholdBytes) return { action: 'pass', reason: 'inline' };
  const type = ccrType(input.toolName, input.isError, input.text);
  if (input.size <= config.thresholdBytes * config.multipliers[type])
    return { action: 'pass', reason: 'under-threshold' };
  if (config.autoExpand && input.size <= config.autoExpandLimitBytes) return { action: 'store', type };
  return { action: 'replace', type };
}
