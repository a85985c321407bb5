// The optional JSONL journal behind the store (seed 002 section 5): one line
// per store, `{hash, type, size, ttlAt, payload}` with the payload the base64
// of the text's UTF-8 bytes, plus one `{hash, gone, at}` line per eviction so
// a reload does not resurrect what the store let go. Lines are only ever
// appended, each in one write, so a crash loses at most the line being written;
// the reader skips a torn or corrupt line instead of failing. Loading compacts:
// the surviving records are rewritten to a temporary file that is renamed over
// the journal (atomic on POSIX), and only when something is to be dropped.
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
  readonly size: number;
  readonly ttlAt: number;
  readonly text: string;
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
}

const NEWLINE = 0x0a;

/** The line stored for a text: its UTF-8 bytes go in once, as base64. */
export function storeLine(id: string, type: string, bytes: Buffer, ttlAt: number): string {
  return `${JSON.stringify({ hash: id, type, size: bytes.length, ttlAt, payload: bytes.toString('base64') })}\n`;
}

export function goneLine(id: string, reason: GoneReason, at: number): string {
  return `${JSON.stringify({ hash: id, gone: reason, at })}\n`;
}

/** Parses one line into a store or eviction record; null when torn, corrupt or tampered with. */
function parseLine(line: string):
  | { kind: 'store'; entry: JournalEntry }
  | { kind: 'gone'; id: string; reason: GoneReason; at: number }
  | null {
  let record: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(line);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    record = value as Record<string, unknown>;
  } catch {
    return null;
  }
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
  const bytes = Buffer.from(payload, 'base64');
  // The hash doubles as a checksum: a line that parses but was damaged is refused.
  if (bytes.length !== size || createHash('sha256').update(bytes).digest('hex').slice(0, 24) !== id) return null;
  return { kind: 'store', entry: { id, type, size, ttlAt, text: bytes.toString('utf8') } };
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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries, expired, compactable: false, corruptLines: 0 };
    throw error;
  }
  let compactable = data.length > 0 && data[data.length - 1] !== NEWLINE;
  let corruptLines = 0;
  // Line by line on the bytes: a journal near the budget is larger than the
  // longest string V8 allows, and one bad line must not cost the others.
  for (let from = 0; from < data.length; ) {
    let to = data.indexOf(NEWLINE, from);
    if (to === -1) to = data.length;
    const line = data.subarray(from, to).toString('utf8');
    from = to + 1;
    if (line.trim() === '') {
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
  return { entries, expired, compactable, corruptLines };
}

/** Creates the journal's directory (0700 when we create it). */
export function ensureJournalDir(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
}

/** Appends one line in one write; the file is created 0600. */
export function appendLine(path: string, line: string): void {
  appendFileSync(path, line, { mode: 0o600 });
}

/** Replaces the journal atomically with `lines` (temp file, fsync, rename). */
export function rewriteJournal(path: string, lines: Iterable<string>): void {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    try {
      for (const line of lines) writeSync(fd, line);
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
}
