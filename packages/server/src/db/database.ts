/**
 * The database adapters: the only file that knows which database is behind Kysely. SQLite (better-sqlite3) in the
 * data dir by default; PostgreSQL (pg) when the configuration gives a `postgres://` URL. Everything else talks
 * Kysely; the few SQL fragments that differ between the two are in db/dialect.ts. Every SQLite connection's settings
 * are in sqlite-connection.ts (the server's and the search index thread's).
 */
import Database from 'better-sqlite3';
import type { CustomTypesConfig, Pool } from 'pg';
import { Kysely, PostgresDialect, Migrator, sql, type SqliteDatabase, type Transaction } from 'kysely';
import type { DB } from './schema.js';
import { migrations } from './migrations/index.js';
import { dialectOf, type DialectName } from './dialect.js';
import { configureConnection, ImmediateSqliteDialect } from './sqlite-connection.js';

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;

export interface OpenedDatabase {
  db: Db;
  dialect: DialectName;
  /** The PostgreSQL URL (for components that open their own connections: a queue, LISTEN); null on SQLite. */
  connectionString: string | null;
  close(): Promise<void>;
}

export interface PoolLimits {
  /** Connections held at most. */
  max: number;
  /** How long a query waits for a free connection before it fails. */
  timeoutMs: number;
}

const DEFAULT_POOL: PoolLimits = { max: 10, timeoutMs: 30_000 };

export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//.test(location);

/** Opens (and migrates) the database at `location`: a `postgres://` URL, or the path of a SQLite file. */
export async function openDatabase(location: string, pool: PoolLimits = DEFAULT_POOL): Promise<OpenedDatabase> {
  const db = isPostgresUrl(location) ? await openPostgres(location, pool) : openSqlite(location);
  try {
    await migrate(db);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return {
    db,
    dialect: dialectOf(db),
    connectionString: isPostgresUrl(location) ? location : null,
    close: () => db.destroy(),
  };
}

function openSqlite(file: string): Db {
  const sqlite = new Database(file);
  configureConnection(sqlite, { busyTimeoutMs: 5000 });
  return new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
}

// pg's type ids (pg_type.oid) of the values whose default JavaScript form differs from what the repositories read.
const INT8 = 20;
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;

/**
 * Values as the repositories read them from SQLite, so that they have one code path: counts and sums as numbers
 * (pg gives 64-bit integers as strings; ours stay far below 2^53), and `timestamptz` as the ISO-8601 UTC string with
 * milliseconds the code writes (the session runs in UTC, so the text form is `2026-11-29 05:00:11.123+00`).
 */
const typesOf = (defaults: CustomTypesConfig) =>
  ({
    getTypeParser(id: number, format?: 'text' | 'binary') {
      if (id === INT8 || id === NUMERIC) return (v: string) => Number(v);
      if (id === TIMESTAMPTZ)
        return (v: string) => new Date(v.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
      return defaults.getTypeParser(id, format);
    },
  }) as CustomTypesConfig;

async function openPostgres(url: string, limits: PoolLimits): Promise<Db> {
  // Loaded here only: a server on SQLite never loads the PostgreSQL client.
  const { default: pg } = await import('pg');
  const types = typesOf(pg.types);
  const pool = new pg.Pool({
    connectionString: url,
    max: limits.max,
    connectionTimeoutMillis: limits.timeoutMs,
    types,
    options: '-c TimeZone=UTC',
  });
  // An idle connection the server dropped (restart, failover) must not take the process down.
  pool.on('error', () => undefined);
  try {
    await checkCollation(pool);
  } catch (e) {
    await pool.end();
    throw e;
  }
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Lists sort as they do on SQLite, where text compares byte by byte (series and book titles are stored with a
 * sort key made for that order, domain/text.ts): a database whose collation is a language's would order them
 * otherwise, so it is refused with what to do.
 */
async function checkCollation(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ datcollate: string; datctype: string; encoding: string }>(
    `SELECT datcollate, datctype, pg_encoding_to_char(encoding) AS encoding FROM pg_database
      WHERE datname = current_database()`,
  );
  const row = rows[0];
  const c = (locale: string | undefined) => ['C', 'POSIX', 'C.UTF-8', 'C.utf8'].includes(locale ?? '');
  if (!row || !c(row.datcollate) || !c(row.datctype) || row.encoding !== 'UTF8')
    throw new Error(
      `The PostgreSQL database must use UTF8 with the C locale (it has ${row?.encoding} / ${row?.datcollate}): ` +
        `CREATE DATABASE … TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`,
    );
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

/**
 * The PostgreSQL advisory lock under which an instance migrates (its schema, then graphile-worker's: cluster.ts).
 * Kysely's migrator first lists every table and column of the database (`pg_get_serial_sequence` on each), which
 * failed with `column "job_count" of relation "job_queues" does not exist` when a second instance started beside one
 * whose graphile-worker migration dropped that column (the two-instance test in a CI run).
 */
export const MIGRATION_LOCK = 'quire_migrate';

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const toLatest = async () => {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed) throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  };
  if (dialectOf(db) === 'sqlite') return toLatest();
  await db.connection().execute(async (session) => {
    await sql`SELECT pg_advisory_lock(hashtext(${MIGRATION_LOCK}))`.execute(session);
    try {
      await toLatest();
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${MIGRATION_LOCK}))`.execute(session);
    }
  });
}

/**
 * Runs a repository's own multi-statement write atomically: in the transaction its connection already is, or in
 * a new one. Repositories use it for writes that must be whole (a poster and its selection); services use the
 * unit of work (db/unit-of-work.ts).
 */
export function atomically<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
