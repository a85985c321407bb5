// The CCR store (docs/GLOSSARY.md, Store): originals by exact id in SQLite, bounded
// by bytes (LRU) and by age (TTL). SQLite rather than a hand-written journal:
// it opens in constant time whatever it holds, its WAL lets many processes
// (parallel agents, the CLI, the plugin) read and write one file at once, and
// a transaction either commits whole or not at all, so a process killed at any
// point harms no other entry. Every put is one IMMEDIATE transaction that
// sweeps what expired, stores the text once under its content id and evicts
// least recently used entries until the budget holds again, across processes.
// Without a folder the same code runs on an in-memory database.
import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, lstatSync, renameSync, rmSync, type Stats, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StoreError, StoreUnavailableError, type UnavailableReason } from './errors.js';
import { bytesId, isOriginalId, isWellFormed } from './id.js';
import { IMPORTED_SUFFIX, JOURNAL_FILE, readJournal } from './journal-import.js';
import { openDatabase, sqliteCode, type SqlDatabase, type SqlStatement } from './sqlite.js';
import { checkStoreFile, createStoreFile, secureStoreDir, unusedName } from './store-dir.js';
import type { Lookup, OriginalStore } from './types.js';

export { StoreError, StoreUnavailableError } from './errors.js';

export const DEFAULT_STORE_BUDGET_BYTES = 268_435_456;
export const DEFAULT_TTL_SECONDS = 3600;
/** The database file in the store folder. */
export const DATABASE_FILE = 'originals.sqlite';
/** Expired ids remembered (so a late lookup says "expired"); the oldest are forgotten first. */
const MAX_EXPIRED_IDS = 4096;
/** How long a writer waits for another process's transaction before giving up (SQLITE_BUSY). */
const BUSY_TIMEOUT_MS = 10_000;
const SCHEMA_VERSION = 1;
/**
 * An empty database file younger than this may be an earlier version's store
 * being created (it made the file empty, then let SQLite fill it); older, it
 * is a store that lost everything (truncated), and is set aside with a warning.
 */
const EMPTY_FILE_GRACE_MS = 5000;

export type GoneReason = 'budget' | 'ttl';

/** What the store reports to the ledger (src/store/ledger.ts formats these). */
export type StoreEvent =
  | { readonly kind: 'evicted'; readonly id: string; readonly reason: GoneReason }
  | { readonly kind: 'retrieved'; readonly id: string }
  | { readonly kind: 'miss'; readonly id: string; readonly reason: 'expired' | 'unknown' };

/** Opens the same store file from another thread (CcrStore.shareable). */
export interface SharedStoreSpec {
  readonly dir: string;
  readonly storeBudgetBytes: number;
  readonly ttlSeconds: number;
}

export interface StoreOptions {
  /** LRU bound on the UTF-8 bytes of the stored texts. Default 268435456 (256 MiB). */
  storeBudgetBytes?: number;
  /** Lifetime of an entry from its (latest) store. Default 3600. */
  ttlSeconds?: number;
  /** Folder holding the database, shared by every process that opens it; absent or '' keeps originals in memory. */
  dir?: string;
  /** Clock in epoch milliseconds (tests inject one). */
  now?: () => number;
  /** Told about what the store did on its own: a damaged database set aside, a journal imported. */
  warn?: (message: string) => void;
  /** Evictions, retrievals and misses, for the ledger. */
  onEvent?: (event: StoreEvent) => void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS originals (
  id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, size INTEGER NOT NULL,
  created_at INTEGER NOT NULL, ttl_at INTEGER NOT NULL, lru INTEGER NOT NULL, body BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS originals_ttl ON originals (ttl_at);
CREATE INDEX IF NOT EXISTS originals_lru ON originals (lru);
CREATE TABLE IF NOT EXISTS expired (id TEXT NOT NULL UNIQUE, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS totals (one INTEGER PRIMARY KEY CHECK (one = 1), bytes INTEGER NOT NULL, entries INTEGER NOT NULL);
INSERT OR IGNORE INTO totals VALUES (1, 0, 0);
CREATE TRIGGER IF NOT EXISTS originals_added AFTER INSERT ON originals
  BEGIN UPDATE totals SET bytes = bytes + new.size, entries = entries + 1; END;
CREATE TRIGGER IF NOT EXISTS originals_dropped AFTER DELETE ON originals
  BEGIN UPDATE totals SET bytes = bytes - old.size, entries = entries - 1; END;
PRAGMA user_version = ${SCHEMA_VERSION};`;

const REASONS: Record<string, UnavailableReason> = {
  SQLITE_READONLY: 'read-only',
  SQLITE_CANTOPEN: 'cannot-open',
  SQLITE_FULL: 'full',
  SQLITE_BUSY: 'busy',
  SQLITE_CORRUPT: 'corrupt',
  SQLITE_NOTADB: 'corrupt',
};

function unavailable(doing: string, error: unknown): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const fsCode = (error as NodeJS.ErrnoException)?.code;
  const reason =
    REASONS[sqliteCode(error)] ??
    (fsCode === 'ENOSPC' ? 'full' : fsCode === 'EROFS' || fsCode === 'EACCES' ? 'read-only' : 'failed');
  const message = (error as Error)?.message ?? String(error);
  // SQLite says only "database is locked": say who holds it and how long this process waited.
  const why =
    reason === 'busy'
      ? `another process held the store's lock for over ${BUSY_TIMEOUT_MS / 1000} s (${message})`
      : message;
  return new StoreUnavailableError(reason, `${doing}: ${why}`, { cause: error });
}

interface Statements {
  readonly entry: SqlStatement;
  readonly exists: SqlStatement;
  readonly insert: SqlStatement;
  readonly refresh: SqlStatement;
  readonly touch: SqlStatement;
  readonly due: SqlStatement;
  readonly remove: SqlStatement;
  readonly leastRecent: SqlStatement;
  readonly totals: SqlStatement;
  readonly rememberExpired: SqlStatement;
  readonly forgetExpired: SqlStatement;
  readonly capExpired: SqlStatement;
  readonly wasExpired: SqlStatement;
}

function prepare(db: SqlDatabase): Statements {
  const next = '(SELECT COALESCE(MAX(lru), 0) + 1 FROM originals)';
  return {
    entry: db.prepare('SELECT type, created_at, ttl_at, body FROM originals WHERE id = ?'),
    exists: db.prepare('SELECT size FROM originals WHERE id = ?'),
    insert: db.prepare(
      `INSERT INTO originals (id, type, size, created_at, ttl_at, lru, body) VALUES (?, ?, ?, ?, ?, ${next}, ?)`,
    ),
    refresh: db.prepare(`UPDATE originals SET type = ?, ttl_at = ?, lru = ${next} WHERE id = ?`),
    touch: db.prepare(`UPDATE originals SET lru = ${next} WHERE id = ?`),
    due: db.prepare('SELECT id FROM originals WHERE ttl_at <= ? ORDER BY ttl_at LIMIT 256'),
    remove: db.prepare('DELETE FROM originals WHERE id = ?'),
    leastRecent: db.prepare('SELECT id FROM originals WHERE id != ? ORDER BY lru LIMIT 1'),
    totals: db.prepare('SELECT bytes, entries FROM totals'),
    rememberExpired: db.prepare('INSERT OR REPLACE INTO expired (id, at) VALUES (?, ?)'),
    forgetExpired: db.prepare('DELETE FROM expired WHERE id = ?'),
    capExpired: db.prepare(`DELETE FROM expired WHERE rowid <= (SELECT MAX(rowid) FROM expired) - ${MAX_EXPIRED_IDS}`),
    wasExpired: db.prepare('SELECT 1 AS hit FROM expired WHERE id = ?'),
  };
}

const asBuffer = (value: unknown): Buffer => {
  const bytes = value as Uint8Array;
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

/** The bytes an original is stored as: a text's UTF-8, or the exact bytes given. */
function originalBytes(original: string | Uint8Array): Buffer {
  if (original instanceof Uint8Array) return asBuffer(original);
  if (typeof original !== 'string') throw new StoreError(`can only store text or bytes, got ${typeof original}`);
  if (!isWellFormed(original)) {
    throw new StoreError('text has unpaired surrogates: its UTF-8 bytes would not give it back, so it is not stored');
  }
  return Buffer.from(original, 'utf8');
}

export class CcrStore implements OriginalStore {
  readonly budgetBytes: number;
  readonly ttlSeconds: number;
  /** The database file, or ':memory:'. */
  readonly path: string;
  // Replaced when a database found damaged mid-use is set aside (heal).
  private db: SqlDatabase;
  private sql: Statements;
  /** The file `db` was opened on, as it was at `path` then: another process may have set it aside since. */
  private file: FileIdentity | null = null;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private readonly onEvent: (event: StoreEvent) => void;
  /** The clock is Date.now: another thread's connection (off-thread.ts) keeps the same time. */
  private readonly realClock: boolean;

  constructor(options: StoreOptions = {}) {
    this.budgetBytes = option('storeBudgetBytes', options.storeBudgetBytes, DEFAULT_STORE_BUDGET_BYTES, true);
    this.ttlSeconds = option('ttlSeconds', options.ttlSeconds, DEFAULT_TTL_SECONDS, false);
    this.now = options.now ?? Date.now;
    this.realClock = options.now === undefined;
    this.warn = options.warn ?? (() => {});
    this.onEvent = options.onEvent ?? (() => {});
    const dir = options.dir ? secureStoreDir(options.dir) : null;
    this.path = dir === null ? ':memory:' : join(dir, DATABASE_FILE);
    this.db = dir === null ? withSchema(openDatabase(':memory:')) : this.openFile(this.path);
    this.sql = prepare(this.db);
    if (dir !== null) this.importJournal(join(dir, JOURNAL_FILE));
  }

  /** UTF-8 bytes held by every process's entries; at most the budget plus the newest entry. */
  get totalBytes(): number {
    return Number(this.sql.totals.get()!.bytes);
  }

  get count(): number {
    return Number(this.sql.totals.get()!.entries);
  }

  /**
   * What another thread needs to open this same store on a connection of its
   * own (off-thread.ts): null for one in this process's memory, or on a test's clock.
   */
  get shareable(): SharedStoreSpec | null {
    if (this.path === ':memory:' || !this.realClock) return null;
    return { dir: dirname(this.path), storeBudgetBytes: this.budgetBytes, ttlSeconds: this.ttlSeconds };
  }

  /** Reports what a put through another connection to this store did (evictions, warnings), as this one's own. */
  relay(events: readonly StoreEvent[], warnings: readonly string[]): void {
    for (const message of warnings) this.warn(message);
    for (const event of events) this.onEvent(event);
  }

  /** Which SQLite binding runs this store. */
  get driver(): SqlDatabase['driver'] {
    return this.db.driver;
  }

  /**
   * Stores the text (or an original's exact bytes) once under its id (a
   * repeat refreshes its TTL and recency). Throws StoreError for a text UTF-8
   * cannot give back and StoreUnavailableError when it could not be stored:
   * no id without a stored original.
   */
  put(
    original: string | Uint8Array,
    meta: { readonly type: string; readonly tool?: string | undefined },
  ): { readonly id: string; readonly size: number } {
    const bytes = originalBytes(original);
    const id = bytesId(bytes);
    const now = this.now();
    const ttlAt = now + this.ttlSeconds * 1000;
    const events = this.healing(() =>
      this.transaction('cannot store the original', () => {
        const events = this.sweep(now);
        if (this.sql.exists.get(id) !== undefined) {
          this.sql.refresh.run(meta.type, ttlAt, id);
        } else {
          this.sql.insert.run(id, meta.type, bytes.length, now, ttlAt, bytes);
          this.sql.forgetExpired.run(id);
        }
        return [...events, ...this.enforceBudget(id)];
      }),
    );
    for (const event of events) this.onEvent(event);
    return { id, size: bytes.length };
  }

  /** Exact-id lookup; refreshes the entry's recency on a hit. A damaged entry is dropped and reported unknown. */
  get(id: string): Lookup {
    if (typeof id !== 'string' || !isOriginalId(id)) return this.miss(String(id), 'unknown');
    const now = this.now();
    let row: Record<string, unknown> | undefined;
    let wasExpired = false;
    try {
      row = this.sql.entry.get(id);
      // Not in a file another process set aside: it may be in the store now at the path.
      if (row === undefined && this.movedAway()) {
        this.reopen();
        row = this.sql.entry.get(id);
      }
      wasExpired = row === undefined && this.sql.wasExpired.get(id) !== undefined;
    } catch (error) {
      const failure = unavailable('cannot read the store', error);
      // What a damaged file held is kept beside it, not read back: set it aside so the next put works.
      if (!this.healable(failure)) throw failure;
      this.heal(failure);
      return this.miss(id, 'unknown');
    }
    if (row === undefined) return this.miss(id, wasExpired ? 'expired' : 'unknown');
    if (now >= Number(row.ttl_at)) {
      this.bestEffort(() => this.transaction('', () => this.forget(id, now)));
      this.onEvent({ kind: 'evicted', id, reason: 'ttl' });
      return this.miss(id, 'expired');
    }
    const bytes = asBuffer(row.body);
    if (bytesId(bytes) !== id) {
      this.warn(`squeeze store: the bytes under ${id} do not match their id; dropped`);
      this.bestEffort(() => this.sql.remove.run(id));
      return this.miss(id, 'unknown');
    }
    // A read-only or busy store still answers; only the recency is not recorded.
    this.bestEffort(() => this.sql.touch.run(id));
    this.onEvent({ kind: 'retrieved', id });
    return {
      found: true,
      entry: {
        id,
        type: String(row.type),
        size: bytes.length,
        text: bytes.toString('utf8'),
        ...(isUtf8(bytes) ? {} : { bytes }),
        createdAt: Number(row.created_at),
        ttlAt: Number(row.ttl_at),
        lastAccessed: now,
      },
    };
  }

  close(): void {
    this.db.close();
  }

  private miss(id: string, reason: 'expired' | 'unknown'): Lookup {
    this.onEvent({ kind: 'miss', id, reason });
    return { found: false, reason };
  }

  private bestEffort(write: () => unknown): void {
    try {
      write();
    } catch {
      // Bookkeeping only (recency, expiry): the answer stands without it.
    }
  }

  /** Runs `work` in one IMMEDIATE transaction (the write lock first, so waiting is SQLite's busy timeout, never a deadlock). */
  private transaction<T>(doing: string, work: () => T): T {
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw unavailable(doing, error);
    }
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // SQLite already rolled back (a full disk or I/O error does): the first error is the one to report.
      }
      throw unavailable(doing, error);
    }
  }

  private forget(id: string, now: number): void {
    this.sql.remove.run(id);
    this.sql.rememberExpired.run(id, now);
  }

  /** Drops every entry at or past its ttlAt, remembering the ids as expired. */
  private sweep(now: number): StoreEvent[] {
    const events: StoreEvent[] = [];
    for (;;) {
      const due = this.sql.due.get(now);
      if (due === undefined) break;
      const id = String(due.id);
      this.forget(id, now);
      events.push({ kind: 'evicted', id, reason: 'ttl' });
    }
    if (events.length > 0) this.sql.capExpired.run();
    return events;
  }

  /** Evicts least recently used entries until within budget, never `keep` (the newest). */
  private enforceBudget(keep: string): StoreEvent[] {
    const events: StoreEvent[] = [];
    while (Number(this.sql.totals.get()!.bytes) > this.budgetBytes) {
      const victim = this.sql.leastRecent.get(keep);
      if (victim === undefined) break;
      const id = String(victim.id);
      this.sql.remove.run(id);
      events.push({ kind: 'evicted', id, reason: 'budget' });
    }
    return events;
  }

  /** Opens (creating 0600) the database file, setting a damaged one aside for a fresh one. */
  private openFile(path: string): SqlDatabase {
    for (const file of [path, `${path}-wal`, `${path}-shm`]) if (checkStoreFile(file)) this.ownerOnly(file);
    // SQLite takes an empty file for a new database: without this it would start over without a word.
    const empty = emptyFor(path, EMPTY_FILE_GRACE_MS);
    if (empty !== null) this.setAside(path, empty, new Error('it is empty: 0 bytes, what it held is lost'));
    try {
      return this.openSchema(path);
    } catch (error) {
      const reason = unavailable('', error).reason;
      // A read-only folder or file system: SQLite's WAL needs its index file, so such a store is neither read nor written.
      if (reason !== 'corrupt') throw unavailable(`cannot open store ${path}`, error);
      this.setAside(path, this.file, error);
      return this.openSchema(path);
    }
  }

  /**
   * Runs a write; a database whose header opened but whose pages are damaged
   * fails it with SQLITE_CORRUPT: set that file aside, start a new one, and try
   * once more. A write that went into a file another process has set aside
   * since (it found it damaged) is not where a reader looks: it is made again
   * in the store now at the path, or fails, never an id that does not retrieve.
   */
  private healing<T>(write: () => T): T {
    let result: T;
    try {
      result = write();
      if (!this.movedAway()) return result;
      this.reopen();
    } catch (error) {
      if (!this.healable(error)) throw error;
      this.heal(error);
    }
    result = write();
    if (this.movedAway()) {
      throw new StoreUnavailableError('corrupt', `cannot store the original: ${this.path} was set aside while writing`);
    }
    return result;
  }

  /** A damaged database file (not an in-memory one) can be set aside for a new one. */
  private healable(error: unknown): error is StoreUnavailableError {
    return error instanceof StoreUnavailableError && error.reason === 'corrupt' && this.path !== ':memory:';
  }

  private heal(error: StoreUnavailableError): void {
    this.closeQuietly();
    this.setAside(this.path, this.file, error);
    this.db = this.openSchema(this.path);
    this.sql = prepare(this.db);
  }

  /** Another process set this connection's file aside: open the store now at the path. */
  private reopen(): void {
    this.closeQuietly();
    this.db = this.openSchema(this.path);
    this.sql = prepare(this.db);
  }

  private closeQuietly(): void {
    try {
      this.db.close();
    } catch {
      // a damaged file may refuse even to close cleanly: it is set aside all the same
    }
  }

  /** The file at the path is no longer the one this connection has open. */
  private movedAway(): boolean {
    return this.path !== ':memory:' && !sameFile(this.file, identityOf(this.path));
  }

  /**
   * Renames a damaged database (with its WAL and index) to `<path>.damaged-<ms>`
   * (`-2`, `-3`… after it when that name is taken), with one warning, if the
   * file at `path` is still `damaged`: when another process met the damage
   * first, the file there now is its new store, healthy.
   */
  private setAside(path: string, damaged: FileIdentity | null, error: unknown): void {
    if (!sameFile(damaged, identityOf(path))) return;
    const aside = unusedName(`${path}.damaged-${this.now()}`);
    try {
      // Its WAL and index go with it: a stale WAL must never be replayed into the new file.
      for (const suffix of ['', '-wal', '-shm'])
        if (checkStoreFile(path + suffix)) renameSync(path + suffix, aside + suffix);
    } catch (renameError) {
      throw unavailable(`store ${path} is damaged and cannot be set aside`, renameError);
    }
    this.warn(
      `squeeze store: ${path} was damaged (${(error as Error).message}); kept it as ${aside} and started a new store`,
    );
  }

  /** A store file readable by group or others (a copy, a umask) holds originals anyone could read: 0600 it, as the folder is. */
  private ownerOnly(file: string): void {
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) === 0) return;
    chmodSync(file, 0o600);
    this.warn(`squeeze store: ${file} was readable by group or others (mode ${mode.toString(8)}); made it 0600`);
  }

  private openSchema(path: string): SqlDatabase {
    if (!checkStoreFile(path)) createDatabase(path);
    // Taken before opening: a file swapped in between makes this connection see
    // its file moved and reopen, where taken after it would trust a file set aside.
    this.file = identityOf(path);
    const db = openDatabase(path);
    try {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // WAL: readers never wait for a writer, and a commit is one append (SIGKILL-safe).
      db.exec('PRAGMA journal_mode = WAL');
      // Durable across a killed process; a power cut may lose the last commits, never corrupts.
      db.exec('PRAGMA synchronous = NORMAL');
      db.exec('PRAGMA journal_size_limit = 67108864');
      return withSchema(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Imports an earlier version's journal once (inside the write lock), then renames it. */
  private importJournal(journal: string): void {
    try {
      if (!checkStoreFile(journal)) return;
      const now = this.now();
      const latest = now + this.ttlSeconds * 1000;
      const imported = this.transaction('cannot import the journal', () => {
        if (!checkStoreFile(journal)) return -1;
        const records = readJournal(journal, now);
        for (const record of records) {
          if (this.sql.exists.get(record.id) !== undefined) continue;
          this.sql.insert.run(
            record.id,
            record.type,
            record.bytes.length,
            now,
            Math.min(record.ttlAt, latest),
            record.bytes,
          );
        }
        this.enforceBudget(records.at(-1)?.id ?? '');
        return records.length;
      });
      if (imported < 0) return;
      renameSync(journal, journal + IMPORTED_SUFFIX);
      this.warn(`squeeze store: imported ${imported} originals from ${journal} (kept as ${journal}${IMPORTED_SUFFIX})`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // another process imported and renamed it
      this.warn(`squeeze store: could not import ${journal} (${(error as Error).message}); it is left as it was`);
    }
  }
}

/** Which file is at a path: a file renamed keeps it, a new file at the path has another. */
type FileIdentity = Pick<Stats, 'dev' | 'ino'>;

function identityOf(path: string): FileIdentity | null {
  try {
    const { dev, ino } = lstatSync(path);
    return { dev, ino };
  } catch {
    return null;
  }
}

const sameFile = (a: FileIdentity | null, b: FileIdentity | null): boolean =>
  a !== null && b !== null && a.dev === b.dev && a.ino === b.ino;

/** The file at `path` if it exists, is empty and was last changed over `graceMs` ago. */
function emptyFor(path: string, graceMs: number): FileIdentity | null {
  try {
    const stat = lstatSync(path);
    return stat.size === 0 && Date.now() - stat.mtimeMs > graceMs ? { dev: stat.dev, ino: stat.ino } : null;
  } catch {
    return null;
  }
}

/**
 * Creates the database whole under a draft name (0600, WAL, schema), then
 * links it into place: no process ever opens a half-made store, and when two
 * create it at once the first link wins and the other opens that one. A file
 * system without hard links gets the empty 0600 file SQLite fills in place.
 */
function createDatabase(path: string): void {
  const draft = `${path}.new-${randomBytes(6).toString('hex')}`;
  createStoreFile(draft);
  try {
    const db = openDatabase(draft);
    try {
      db.exec('PRAGMA journal_mode = WAL');
      withSchema(db);
    } finally {
      db.close(); // the last connection closing folds the WAL into the file
    }
    linkSync(draft, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') createStoreFile(path);
    else if (code !== 'EEXIST') throw error;
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(draft + suffix, { force: true });
  }
}

/** Creates the tables once (any process may be first; IF NOT EXISTS makes a race harmless). */
function withSchema(db: SqlDatabase): SqlDatabase {
  if (Number(db.prepare('PRAGMA user_version').get()!.user_version) === SCHEMA_VERSION) return db;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(SCHEMA);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return db;
}

function option(key: string, value: number | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new StoreError(
      `store option '${key}' must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** A store with the default budget and TTL (docs/GLOSSARY.md, Store); see StoreOptions. Throws StoreUnavailableError when its folder is unsafe or it cannot open. */
export function createStore(options: StoreOptions = {}): CcrStore {
  return new CcrStore(options);
}
