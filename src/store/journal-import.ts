// Reads the JSONL journal earlier versions kept (`journal.jsonl`: one
// `{hash,type,size,ttlAt,payload}` line per store, payload the base64 of the
// UTF-8 bytes, one `{hash,gone,at}` line per eviction) so its live originals
// can be imported once into the SQLite store. A torn or damaged line, or a
// payload that does not hash to its id, is skipped.
import { readFileSync } from 'node:fs';
import { bytesId } from './id.js';

export const JOURNAL_FILE = 'journal.jsonl';
/** The journal is renamed to this after its import, never deleted. */
export const IMPORTED_SUFFIX = '.imported';

export interface JournalRecord {
  readonly id: string;
  readonly type: string;
  readonly ttlAt: number;
  readonly bytes: Buffer;
}

function parse(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The journal's records still live at `now`, in store order (oldest first). */
export function readJournal(path: string, now: number): JournalRecord[] {
  const data = readFileSync(path);
  const live = new Map<string, JournalRecord>();
  for (let from = 0; from < data.length; ) {
    let to = data.indexOf(0x0a, from);
    if (to === -1) to = data.length;
    const record = parse(data.toString('utf8', from, to));
    from = to + 1;
    const id = record?.hash;
    if (record === null || typeof id !== 'string') continue;
    if (record.gone !== undefined) {
      live.delete(id);
      continue;
    }
    const { type, ttlAt, payload } = record;
    if (typeof type !== 'string' || typeof ttlAt !== 'number' || typeof payload !== 'string') continue;
    const bytes = Buffer.from(payload, 'base64');
    if (ttlAt <= now || bytesId(bytes) !== id) continue;
    live.delete(id);
    live.set(id, { id, type, ttlAt, bytes });
  }
  return [...live.values()];
}
