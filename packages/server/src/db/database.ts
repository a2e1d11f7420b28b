/**
 * The SQLite adapter (with sqlite-connection.ts, the settings of every connection, and the search index in
 * search/sqlite-*): the only files that know the database is SQLite. Everything else talks Kysely,
 * so a PostgreSQL adapter can sit beside this one later.
 */
import Database from 'better-sqlite3';
import { Kysely, Migrator, type Transaction } from 'kysely';
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
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  await migrate(db);
  return { db, close: () => db.destroy() };
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
