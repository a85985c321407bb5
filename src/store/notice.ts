// The lines appended to a compressed result so its reader can get the original
// back (docs/GLOSSARY.md, Marker and Notice). Kept
// short: they are paid in tokens on every compressed result.
import { TERMINAL_CODES_NOTE } from '../processors/markers.js';
import { isOriginalId } from './id.js';

/** `<<<CCR:<24hex>|<type>|<size>>>`, pure ASCII so it survives any normalisation. */
export function marker(id: string, type: string, size: number): string {
  if (!isOriginalId(id))
    throw new RangeError(`marker id must be 24 lowercase hex characters, got ${JSON.stringify(id)}`);
  if (!/^[a-z][a-z0-9_-]*$/.test(type))
    throw new RangeError(`marker type must be a lowercase ASCII word, got ${JSON.stringify(type)}`);
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
 * The ways back to an original that work for whoever reads the notice; the
 * host says which (a way it cannot vouch for is a hint that fails).
 */
export interface RetrievalWays {
  /** The name of a retrieval tool the reader can call with `{hash, range?, grep?}` (the DSH plugin's `ccr_retrieve`). */
  readonly tool?: string;
  /** `squeeze retrieve` reads the store the original is in: `store` is its --store value, absent for the default store. */
  readonly cli?: { readonly store?: string };
}

/** The `--store` argument as a shell word: bare when it needs no quoting. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./~-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The marker, one line saying how to get the original (whole, a line range or
 * a grep) by each of the `ways` that work for its reader (none: the marker
 * alone, its id for the host's own store), and the spill locator when there is
 * one, and the verdict line (`verdict: 2 of 600 tests failed`) when the output
 * stated one, and, when the output was shown without the original's terminal
 * codes, a line saying so (TERMINAL_CODES_NOTE). Lines joined with '\n', no
 * trailing newline.
 */
export function retrievalNotice(
  id: string,
  type: string,
  size: number,
  spill?: SpillLocation,
  ways: RetrievalWays = {},
  verdict?: string,
  codesRemoved = false,
): string {
  const lines = [marker(id, type, size)];
  const hints: string[] = [];
  if (ways.tool !== undefined)
    hints.push(`${ways.tool} {"hash":"${id}"} (+ "range":{"start":N,"count":N} or "grep":"P")`);
  if (ways.cli !== undefined) {
    const store = ways.cli.store === undefined ? '' : ` --store ${shellWord(ways.cli.store)}`;
    hints.push(`squeeze retrieve ${id}${store} [--start N --count N] [--grep P]`);
  }
  if (hints.length > 0) lines.push(`[original: ${hints.join(' | ')}]`);
  if (spill && oneLine(spill.locator) !== '') {
    const hint = spill.hint ? ` (${oneLine(spill.hint)})` : '';
    lines.push(`[also saved: ${oneLine(spill.locator)}${hint}]`);
  }
  if (verdict !== undefined && oneLine(verdict) !== '') lines.push(`[${oneLine(verdict)}]`);
  if (codesRemoved) lines.push(TERMINAL_CODES_NOTE);
  return lines.join('\n');
}
