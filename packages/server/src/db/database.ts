/**
 * The SQLite adapter (with sqlite-connection.ts, the settings of every connection, and the search index in
 * search/sqlite-*): the only files that know the database is SQLite. Everything else talks Kysely,
 * so a PostgreSQL adapter can sit beside this one later.
 */
import Database from 'better-sqlite3';
import { Kysely, Migrator, type SqliteDatabase, type Transaction } from 'kysely';
import type { DB } from './schema.js';
import { migrations } from './migrations/index.js';
import { configureConnection, ImmediateSqliteDialect } from './sqlite-connection.js';

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;

export interface OpenedDatabase {
  db: Db;
  close(): Promise<void>;
}

export async function openDatabase(file: string): Promise<OpenedDatabase> {
  const sqlite = new Database(file);
  configureConnection(sqlite, { busyTimeoutMs: 5000 });
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db);
  return { db, close: () => db.destroy() };
}

/** How many prepared statements are kept: more than the distinct queries of an import or a page of the web client. */
const CACHED_STATEMENTS = 500;

/**
 * Kysely's SQLite driver prepares every query it runs: SQLite parses and plans the same few statements again for
 * every task of an import (better-sqlite3's `prepare` was 0.69 s of the main thread in a 300-book bench:scan, more
 * than the queries' own execution after it). This keeps the most recently used statements by their SQL. A statement
 * still being iterated (a streamed select) is busy and cannot run again: Kysely's one connection never lets that
 * happen, but such a query would get a fresh statement.
 */
function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        statements.delete(sql); // most recently used last
        statements.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      if (!cached) {
        statements.set(sql, statement);
        if (statements.size > CACHED_STATEMENTS) statements.delete(statements.keys().next().value!);
      }
      return statement;
    },
  };
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

/**
 * Runs a repository's own multi-statement write atomically: in the transaction its connection already is, or in
 * a new one. Repositories use it for writes that must be whole (a poster and its selection); services use the
 * unit of work (db/unit-of-work.ts).
 */
export function atomically<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
