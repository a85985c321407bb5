// What the model was shown in one session's recent results, kept beside the
// originals (docs/GLOSSARY.md, Repeats of recent results): each `squeeze
// compress` is a process of its own, so a session's memory of its last results
// lives in the store's database, one row per session. A write from another
// process at the same moment may win over this one: then a repeat goes
// unnoticed once, nothing worse.
import { openDatabase, type SqlDatabase } from './sqlite.js';

/** One result the model was shown: its original's digest (the pipeline's textDigest) and the output. */
export interface SessionResult {
  readonly original: string;
  readonly output: string;
}

/** Results remembered per session (the pipeline's recent results: docs/GLOSSARY.md). */
const KEPT = 3;
/** An output longer than this is not remembered: the memory stays small. */
const MAX_OUTPUT_CHARS = 262_144;

const SCHEMA = `CREATE TABLE IF NOT EXISTS session_results (
  session TEXT NOT NULL PRIMARY KEY, at INTEGER NOT NULL, results TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS session_results_at ON session_results (at);`;

export class SessionResults {
  private readonly db: SqlDatabase;

  /** Opens the store's database file (`CcrStore.path`), which the store has already made safe. */
  constructor(
    path: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.db = openDatabase(path);
    try {
      this.db.exec('PRAGMA busy_timeout = 2000');
      this.db.exec(SCHEMA);
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /** The session's remembered results, oldest first; none once they are older than the store's TTL. */
  recent(session: string): SessionResult[] {
    const row = this.db
      .prepare('SELECT results FROM session_results WHERE session = ? AND at > ?')
      .get(session, this.now() - this.ttlSeconds * 1000);
    if (row === undefined) return [];
    const parsed: unknown = JSON.parse(String(row.results));
    return Array.isArray(parsed) ? (parsed as SessionResult[]) : [];
  }

  /** Adds a result to the session's memory (the oldest beyond three go) and forgets expired sessions. */
  add(session: string, result: SessionResult): void {
    if (result.output.length > MAX_OUTPUT_CHARS) return;
    const results = [...this.recent(session), result].slice(-KEPT);
    const at = this.now();
    this.db.prepare('DELETE FROM session_results WHERE at <= ?').run(at - this.ttlSeconds * 1000);
    this.db
      .prepare('INSERT OR REPLACE INTO session_results (session, at, results) VALUES (?, ?, ?)')
      .run(session, at, JSON.stringify(results));
  }

  close(): void {
    this.db.close();
  }
}
