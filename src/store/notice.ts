// The lines appended to a compressed result so its reader can get the original
// back (docs/GLOSSARY.md, Marker and Notice). Kept
// short: they are paid in tokens on every compressed result.
import { isOriginalId } from './id.js';

/** `<<<CCR:<24hex>|<type>|<size>>>`, pure ASCII so it survives any normalisation. */
export function marker(id: string, type: string, size: number): string {
  if (!isOriginalId(id)) throw new RangeError(`marker id must be 24 lowercase hex characters, got ${JSON.stringify(id)}`);
  if (!/^[a-z][a-z0-9_-]*$/.test(type)) throw new RangeError(`marker type must be a lowercase ASCII word, got ${JSON.stringify(type)}`);
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`marker size must be a byte count, got ${size}`);
  return `<<<CCR:${id}|${type}|${size}>>>`;
}

/** Where the harness spill store also saved the original, and how to read it back. */
export interface SpillLocation {
  readonly locator: string;
  readonly hint?: string;
}

/** One line of host-provided text: newlines and runs of blanks become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The marker, one line saying how to get the original (whole, a line range or
 * a grep) through the `ccr_retrieve` tool or the CLI, and the spill locator
 * when there is one. Lines joined with '\n', no trailing newline.
 */
export function retrievalNotice(id: string, type: string, size: number, spill?: SpillLocation): string {
  const lines = [
    marker(id, type, size),
    `[original: ccr_retrieve {"hash":"${id}"} (+ "range":{"start":N,"count":N} or "grep":"P") | squeeze retrieve ${id} [--start N --count N] [--grep P]]`,
  ];
  if (spill && oneLine(spill.locator) !== '') {
    const hint = spill.hint ? ` (${oneLine(spill.hint)})` : '';
    lines.push(`[also saved: ${oneLine(spill.locator)}${hint}]`);
  }
  return lines.join('\n');
}
