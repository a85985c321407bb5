// The SQLite the store runs on: better-sqlite3 (a maintained native binding,
// synchronous like the pipeline's put) or, where its compiled addon does not
// load (a Node whose ABI it was not built for, e.g. the harness's Node 22 with
// an addon built for Node 20), Node's own `node:sqlite` (Node 22.13+). Only the
// subset both share is used: exec, prepare, run, get, close.
import { createRequire } from 'node:module';

export interface SqlStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): Record<string, unknown> | undefined;
}

export interface SqlDatabase {
  readonly driver: 'better-sqlite3' | 'node:sqlite';
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

type Opener = (path: string, readonly: boolean) => SqlDatabase;

const require = createRequire(import.meta.url);
let opener: Opener | undefined;

function betterSqlite(): Opener {
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  // Fails here, not at first use, when the addon's ABI does not match this Node.
  new Database(':memory:').close();
  return (path, readonly) => {
    const db = new Database(path, { readonly, fileMustExist: readonly });
    return {
      driver: 'better-sqlite3',
      exec: (sql) => void db.exec(sql),
      prepare: (sql) => db.prepare(sql) as unknown as SqlStatement,
      close: () => db.close(),
    };
  };
}

function nodeSqlite(): Opener {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const sqlite = getBuiltin?.('node:sqlite') as
    | {
        DatabaseSync: new (
          path: string,
          options?: { readOnly?: boolean },
        ) => SqlDatabase & { prepare(sql: string): SqlStatement };
      }
    | undefined;
  if (sqlite === undefined) throw new Error(`node:sqlite is not available in Node ${process.version}`);
  return (path, readonly) => {
    const db = new sqlite.DatabaseSync(path, { readOnly: readonly });
    return {
      driver: 'node:sqlite',
      exec: (sql) => db.exec(sql),
      prepare: (sql) => db.prepare(sql),
      close: () => db.close(),
    };
  };
}

/** Opens `path` with the first driver that loads here; throws (with both reasons) when none does. */
export function openDatabase(path: string, readonly = false): SqlDatabase {
  if (opener === undefined) {
    const reasons: string[] = [];
    for (const load of [betterSqlite, nodeSqlite]) {
      try {
        opener = load();
        break;
      } catch (error) {
        reasons.push(error instanceof Error ? error.message.split('\n')[0]! : String(error));
      }
    }
    if (opener === undefined) {
      throw new Error(
        `no SQLite driver loads in Node ${process.version}: ${reasons.join('; ')} ` +
          '(reinstall squeeze with this Node so better-sqlite3 is rebuilt, or use Node 22.13+)',
      );
    }
  }
  return opener(path, readonly);
}

const PRIMARY_CODES: Record<number, string> = {
  5: 'SQLITE_BUSY',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  26: 'SQLITE_NOTADB',
};

/** The primary SQLite result code name of an error from either driver ('' when it is not one). */
export function sqliteCode(error: unknown): string {
  const e = error as { code?: unknown; errcode?: unknown };
  if (typeof e?.errcode === 'number') return PRIMARY_CODES[e.errcode & 0xff] ?? 'SQLITE_ERROR';
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_')) {
    return e.code.split('_').slice(0, 2).join('_');
  }
  return '';
}
