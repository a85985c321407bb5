// The optional JSONL journal behind the store (seed 002 section 5): one line
// per store, `{hash, type, size, ttlAt, payload}` with the payload the base64
// of the text's UTF-8 bytes, plus one `{hash, gone, at}` line per eviction so
// a reload does not resurrect what the store let go. Lines are only ever
// appended, each in one write, so a crash loses at most the line being written;
// the reader skips a torn or corrupt line instead of failing. Compaction
// rewrites the surviving records to a temporary file renamed over the journal
// (atomic on POSIX).
import { createHash } from 'node:crypto';
import {
  appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { isOriginalId } from './id.js';

export type GoneReason = 'budget' | 'ttl';

export interface JournalEntry {
  readonly id: string;
  readonly type: string;
  readonly ttlAt: number;
  /** The text's UTF-8 bytes, not yet checked against the id (see bytesMatch). */
  readonly bytes: Buffer;
}

export interface JournalContents {
  /** Live records, oldest store first (the LRU order a reload starts from). */
  readonly entries: Map<string, JournalEntry>;
  /** Ids that expired, with when (so a later lookup says "expired", not "unknown"). */
  readonly expired: Map<string, number>;
  /** Whether rewriting would drop anything: corrupt or superseded lines, texts since evicted. */
  readonly compactable: boolean;
  /** Lines that were torn or corrupt and skipped. */
  readonly corruptLines: number;
  /** Bytes read. */
  readonly fileBytes: number;
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;
const PAYLOAD = ',"payload":"';

/** The id of UTF-8 bytes: first 24 hex characters of their SHA-256. */
export function bytesId(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 24);
}

/** A copy that owns its memory: a small Buffer would otherwise pin Node's whole 8 KiB pool slab. */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/**
 * The line stored for a text: its UTF-8 bytes go in once, as base64, last.
 * Built by hand because JSON.stringify scans the whole payload for escapes,
 * and base64 has none (the reader relies on the payload being last).
 */
export function storeLine(id: string, type: string, bytes: Buffer, ttlAt: number): string {
  const head = JSON.stringify({ hash: id, type, size: bytes.length, ttlAt });
  return `${head.slice(0, -1)}${PAYLOAD}${bytes.toString('base64')}"}\n`;
}

export function goneLine(id: string, reason: GoneReason, at: number): string {
  return `${JSON.stringify({ hash: id, gone: reason, at })}\n`;
}

/**
 * The record of a line, as JSON. A line laid out as storeLine writes it has
 * only its small head parsed, and its payload (ASCII) copied out as latin1,
 * the cheapest decode; anything else goes through JSON.parse whole.
 */
function splitLine(line: Buffer): Record<string, unknown> | null {
  const at = line.indexOf(PAYLOAD);
  const end = line.length - 2;
  const value: unknown =
    at !== -1 && line[end] === QUOTE && line[end + 1] === CLOSE_BRACE && line.indexOf(QUOTE, at + PAYLOAD.length) === end
      ? { ...JSON.parse(`${line.toString('utf8', 0, at)}}`), payload: line.toString('latin1', at + PAYLOAD.length, end) }
      : JSON.parse(line.toString('utf8'));
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * Parses one line into a store or eviction record; null when torn or corrupt.
 * The payload's hash is checked when the text is first asked for (bytesMatch),
 * not here: a reload then costs a base64 decode per record, not a SHA-256.
 */
function parseLine(line: Buffer):
  | { kind: 'store'; entry: JournalEntry }
  | { kind: 'gone'; id: string; reason: GoneReason; at: number }
  | null {
  let record: Record<string, unknown> | null;
  try {
    record = splitLine(line);
  } catch {
    return null;
  }
  if (record === null) return null;
  const id = record.hash;
  if (typeof id !== 'string' || !isOriginalId(id)) return null;
  if (record.gone === 'budget' || record.gone === 'ttl') {
    return typeof record.at === 'number' && Number.isFinite(record.at)
      ? { kind: 'gone', id, reason: record.gone, at: record.at }
      : null;
  }
  const { type, size, ttlAt, payload } = record;
  if (typeof type !== 'string' || typeof payload !== 'string') return null;
  if (typeof size !== 'number' || typeof ttlAt !== 'number' || !Number.isFinite(ttlAt)) return null;
  const bytes = ownBytes(Buffer.from(payload, 'base64'));
  if (bytes.length !== size) return null;
  return { kind: 'store', entry: { id, type, ttlAt, bytes } };
}

/**
 * Reads and replays a journal. A missing file is an empty journal; any other
 * read error is thrown (the store then degrades to memory-only).
 */
export function readJournal(path: string): JournalContents {
  const entries = new Map<string, JournalEntry>();
  const expired = new Map<string, number>();
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { entries, expired, compactable: false, corruptLines: 0, fileBytes: 0 };
    }
    throw error;
  }
  let compactable = data.length > 0 && data[data.length - 1] !== NEWLINE;
  let corruptLines = 0;
  // Line by line on the bytes: a journal near the budget is larger than the
  // longest string V8 allows, and one bad line must not cost the others.
  for (let from = 0; from < data.length; ) {
    let to = data.indexOf(NEWLINE, from);
    if (to === -1) to = data.length;
    const line = data.subarray(from, to);
    from = to + 1;
    if (line.length <= 16 && line.toString('latin1').trim() === '') {
      compactable = true;
      continue;
    }
    const record = parseLine(line);
    if (record === null) {
      corruptLines++;
      compactable = true;
    } else if (record.kind === 'store') {
      if (entries.delete(record.entry.id)) compactable = true;
      entries.set(record.entry.id, record.entry);
      expired.delete(record.entry.id);
    } else {
      // An eviction line is only worth a rewrite when it cancels a stored text;
      // the expired ids it carries are kept across compactions on purpose.
      if (entries.delete(record.id) || record.reason === 'budget') compactable = true;
      if (record.reason === 'ttl') expired.set(record.id, record.at);
    }
  }
  return { entries, expired, compactable, corruptLines, fileBytes: data.length };
}

/** Creates the journal's directory (0700 when we create it). */
export function ensureJournalDir(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
}

/** Appends one line in one write; the file is created 0600. */
export function appendLine(path: string, line: string): void {
  appendFileSync(path, line, { mode: 0o600 });
}

/** Replaces the journal atomically with `lines` (temp file, fsync, rename); returns the bytes written. */
export function rewriteJournal(path: string, lines: Iterable<string>): number {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  let written = 0;
  try {
    try {
      for (const line of lines) written += writeSync(fd, line);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // the temp file may never have been written; the original error matters
    }
    throw error;
  }
  return written;
}
