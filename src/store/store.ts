// The CCR store (seed 002 section 5): originals by exact id in an in-memory
// LRU bounded by bytes, with a TTL and an optional JSONL journal so a later
// process (the `squeeze retrieve` of another shell) finds them again. Texts
// are held as their UTF-8 bytes, so the budget counts what memory holds.
import { isWellFormed } from './id.js';
import {
  appendLine, bytesId, ensureJournalDir, goneLine, ownBytes, readJournal, rewriteJournal, storeLine,
  type GoneReason, type JournalEntry,
} from './journal.js';
import type { Lookup, OriginalStore } from './types.js';

export const DEFAULT_STORE_BUDGET_BYTES = 268_435_456;
export const DEFAULT_TTL_SECONDS = 3600;
/** Expired ids remembered (so a late lookup says "expired"); the oldest are forgotten first. */
const MAX_EXPIRED_IDS = 4096;
/** A running journal is compacted once it is this much larger than its live records (and past journalCompactBytes). */
const COMPACT_RATIO = 2;

/** What the store reports to the ledger (src/store/ledger.ts formats these). */
export type StoreEvent =
  | { readonly kind: 'evicted'; readonly id: string; readonly reason: GoneReason }
  | { readonly kind: 'retrieved'; readonly id: string }
  | { readonly kind: 'miss'; readonly id: string; readonly reason: 'expired' | 'unknown' };

export interface StoreOptions {
  /** LRU bound on the UTF-8 bytes of the stored texts. Default 268435456 (256 MiB). */
  storeBudgetBytes?: number;
  /** Lifetime of an entry from its (latest) store. Default 3600. */
  ttlSeconds?: number;
  /** JSONL journal file; '' or absent keeps the store in memory only. */
  journalPath?: string;
  /** Clock in epoch milliseconds (tests inject one). Assumed not to run backwards. */
  now?: () => number;
  /**
   * Journal size from which a running store rewrites its journal when evicted
   * records make up over half of it. Default 67108864 (64 MiB).
   */
  journalCompactBytes?: number;
  /** Told once when the journal fails and the store continues in memory only. */
  warn?: (message: string) => void;
  /** Evictions, retrievals and misses, for the ledger. */
  onEvent?: (event: StoreEvent) => void;
}

/** A bad store option or a text the store cannot keep faithfully. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

interface Entry {
  readonly id: string;
  type: string;
  readonly bytes: Buffer;
  /** False for an entry read back from the journal until its bytes are checked against its id. */
  verified: boolean;
  readonly createdAt: number;
  ttlAt: number;
  lastAccessed: number;
}

/** Approximate journal line length of an entry (base64 payload plus the head). */
const lineBytes = (entry: Entry) => Math.ceil(entry.bytes.length / 3) * 4 + 120;

export class CcrStore implements OriginalStore {
  readonly budgetBytes: number;
  readonly ttlSeconds: number;
  /** Least recently used first: the Map's order is the LRU order. */
  private readonly entries = new Map<string, Entry>();
  /** Soonest expiry first (insertion order, since every store adds the same TTL). */
  private readonly byExpiry = new Map<string, Entry>();
  private readonly expiredIds = new Map<string, number>();
  private bytes = 0;
  private journalPath: string | null;
  /** Size of the journal file, and how much of it the live entries account for. */
  private journalBytes = 0;
  private liveJournalBytes = 0;
  private readonly journalCompactBytes: number;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly onEvent: (event: StoreEvent) => void;

  constructor(options: StoreOptions = {}) {
    this.budgetBytes = option('storeBudgetBytes', options.storeBudgetBytes, DEFAULT_STORE_BUDGET_BYTES, true);
    this.ttlSeconds = option('ttlSeconds', options.ttlSeconds, DEFAULT_TTL_SECONDS, false);
    this.journalCompactBytes = option('journalCompactBytes', options.journalCompactBytes, 64 * 1024 * 1024, true);
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? (() => {});
    this.onEvent = options.onEvent ?? (() => {});
    this.journalPath = options.journalPath ? options.journalPath : null;
    if (this.journalPath !== null) this.load(this.journalPath);
  }

  /** UTF-8 bytes held; never more than the budget plus the newest entry. */
  get totalBytes(): number {
    return this.bytes;
  }

  get count(): number {
    return this.entries.size;
  }

  /** Whether the journal is in use (false when memory-only, by choice or after a failure). */
  get journaling(): boolean {
    return this.journalPath !== null;
  }

  put(text: string, meta: { readonly type: string; readonly tool?: string }): { readonly id: string; readonly size: number } {
    if (typeof text !== 'string') throw new StoreError(`can only store text, got ${typeof text}`);
    if (!isWellFormed(text)) {
      throw new StoreError('text has unpaired surrogates: its UTF-8 bytes would not give it back, so it is not stored');
    }
    const now = this.now();
    this.sweep(now);
    // Encoded once: the id, the size, the held copy and the journal's payload all come from these bytes.
    const bytes = Buffer.from(text, 'utf8');
    const id = bytesId(bytes);
    const ttlAt = now + this.ttlSeconds * 1000;
    let entry = this.entries.get(id);
    if (entry) this.unlink(entry);
    if (entry?.verified) {
      // Equal text, same id: refresh its lifetime and recency instead of a second copy.
      entry.type = meta.type;
      entry.ttlAt = ttlAt;
      entry.lastAccessed = now;
    } else {
      // New, or read back from the journal and not yet checked: keep the fresh bytes.
      this.expiredIds.delete(id);
      entry = { id, type: meta.type, bytes: ownBytes(bytes), verified: true, createdAt: now, ttlAt, lastAccessed: now };
    }
    this.link(entry);
    this.journal(() => storeLine(id, meta.type, bytes, ttlAt));
    this.enforceBudget(id, now);
    this.compactIfBloated();
    return { id, size: bytes.length };
  }

  get(id: string): Lookup {
    const entry = this.entries.get(id);
    const now = this.now();
    if (entry === undefined) return this.miss(id, this.expiredIds.has(id) ? 'expired' : 'unknown');
    if (now >= entry.ttlAt) {
      this.evict(entry, 'ttl', now);
      return this.miss(id, 'expired');
    }
    if (!entry.verified) {
      // A journal line that parsed but whose bytes do not hash to its id was damaged: never serve it.
      if (bytesId(entry.bytes) !== id) {
        this.unlink(entry);
        return this.miss(id, 'unknown');
      }
      entry.verified = true;
    }
    this.entries.delete(id);
    entry.lastAccessed = now;
    this.entries.set(id, entry);
    this.onEvent({ kind: 'retrieved', id });
    const { type, bytes, createdAt, ttlAt } = entry;
    return { found: true, entry: { id, type, size: bytes.length, text: bytes.toString('utf8'), createdAt, ttlAt, lastAccessed: now } };
  }

  private miss(id: string, reason: 'expired' | 'unknown'): Lookup {
    this.onEvent({ kind: 'miss', id, reason });
    return { found: false, reason };
  }

  private link(entry: Entry): void {
    this.entries.set(entry.id, entry);
    this.byExpiry.set(entry.id, entry);
    this.bytes += entry.bytes.length;
    this.liveJournalBytes += lineBytes(entry);
  }

  private unlink(entry: Entry): void {
    this.entries.delete(entry.id);
    this.byExpiry.delete(entry.id);
    this.bytes -= entry.bytes.length;
    this.liveJournalBytes -= lineBytes(entry);
  }

  private evict(entry: Entry, reason: GoneReason, now: number): void {
    this.unlink(entry);
    if (reason === 'ttl') this.rememberExpired(entry.id, now);
    this.journal(() => goneLine(entry.id, reason, now));
    this.onEvent({ kind: 'evicted', id: entry.id, reason });
  }

  private rememberExpired(id: string, at: number): void {
    this.expiredIds.delete(id);
    this.expiredIds.set(id, at);
    if (this.expiredIds.size > MAX_EXPIRED_IDS) {
      this.expiredIds.delete(this.expiredIds.keys().next().value as string);
    }
  }

  /** Drops every entry at or past its ttlAt (soonest first, so the scan stops early). */
  private sweep(now: number): void {
    for (const entry of this.byExpiry.values()) {
      if (entry.ttlAt > now) break;
      this.evict(entry, 'ttl', now);
    }
  }

  /** Evicts least recently used entries until within budget, never `keep` (the newest). */
  private enforceBudget(keep: string, now: number): void {
    for (const entry of this.entries.values()) {
      if (this.bytes <= this.budgetBytes) break;
      if (entry.id !== keep) this.evict(entry, 'budget', now);
    }
  }

  /** Writes one journal line; on failure warns once and goes memory-only. */
  private journal(line: () => string): void {
    if (this.journalPath === null) return;
    const text = line();
    try {
      appendLine(this.journalPath, text);
      this.journalBytes += Buffer.byteLength(text);
    } catch (error) {
      this.journalFailed('cannot append to', error);
    }
  }

  /** A long-running store rewrites its journal once evicted records dominate it. */
  private compactIfBloated(): void {
    if (this.journalPath === null) return;
    if (this.journalBytes <= Math.max(this.journalCompactBytes, COMPACT_RATIO * this.liveJournalBytes)) return;
    this.compact(this.journalPath);
  }

  private compact(path: string): void {
    try {
      this.journalBytes = rewriteJournal(path, this.compactedLines());
    } catch (error) {
      this.journalFailed('cannot compact', error);
    }
  }

  private *compactedLines(): Generator<string> {
    for (const [id, at] of this.expiredIds) yield goneLine(id, 'ttl', at);
    for (const entry of this.entries.values()) yield storeLine(entry.id, entry.type, entry.bytes, entry.ttlAt);
  }

  private journalFailed(doing: string, error: unknown): void {
    const path = this.journalPath;
    this.journalPath = null;
    const reason = error instanceof Error ? error.message : String(error);
    this.warn(`squeeze store: ${doing} journal ${path} (${reason}); keeping originals in memory only`);
  }

  /** Restores the journal's live records, applies TTL and budget, and compacts the file if that dropped anything. */
  private load(path: string): void {
    let contents;
    try {
      ensureJournalDir(path);
      contents = readJournal(path);
    } catch (error) {
      this.journalFailed('cannot read', error);
      return;
    }
    this.journalBytes = contents.fileBytes;
    const now = this.now();
    let dropped = contents.compactable;
    for (const [id, at] of contents.expired) this.rememberExpired(id, at);
    const live: JournalEntry[] = [];
    for (const record of contents.entries.values()) {
      if (now >= record.ttlAt) {
        this.rememberExpired(record.id, record.ttlAt);
        this.onEvent({ kind: 'evicted', id: record.id, reason: 'ttl' });
        dropped = true;
      } else {
        live.push(record);
      }
    }
    // Expiry order first (a TTL since shortened applies to old entries too), then journal order for the LRU.
    const latestTtlAt = now + this.ttlSeconds * 1000;
    const restored = new Map<string, Entry>();
    for (const record of [...live].sort((a, b) => a.ttlAt - b.ttlAt)) {
      const ttlAt = Math.min(record.ttlAt, latestTtlAt);
      const entry: Entry = { ...record, verified: false, createdAt: now, ttlAt, lastAccessed: now };
      restored.set(entry.id, entry);
      this.byExpiry.set(entry.id, entry);
    }
    for (const record of live) {
      const entry = restored.get(record.id) as Entry;
      this.entries.set(entry.id, entry);
      this.bytes += entry.bytes.length;
      this.liveJournalBytes += lineBytes(entry);
    }
    // A smaller budget than the writer's applies on load, oldest first; the newest always stays.
    for (const entry of this.entries.values()) {
      if (this.bytes <= this.budgetBytes || this.entries.size === 1) break;
      this.unlink(entry);
      this.onEvent({ kind: 'evicted', id: entry.id, reason: 'budget' });
      dropped = true;
    }
    if (dropped) this.compact(path);
  }
}

function option(key: string, value: number | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new StoreError(`store option '${key}' must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A store with the seed's defaults; see StoreOptions. */
export function createStore(options: StoreOptions = {}): CcrStore {
  return new CcrStore(options);
}
