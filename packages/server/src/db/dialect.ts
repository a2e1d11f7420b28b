/**
 * The SQL that differs between SQLite and PostgreSQL, in one place: column types of the migrations and the few
 * expressions the query builder cannot write the same way on both. Everything else is one Kysely code path.
 * (db/database.ts opens the database; this file only tells which one a Kysely instance talks to.)
 */
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const dialectOf = (db: AnyDb): DialectName =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

export const isPostgres = (db: AnyDb) => dialectOf(db) === 'postgres';

/**
 * Column types of the migrations. SQLite keeps what it always had (dates are ISO-8601 text with milliseconds,
 * which sort as text); PostgreSQL stores dates as `timestamptz`, 64-bit integers where a value may pass 2^31
 * (file sizes), doubles for reals and `bytea` for blobs. The repositories read both alike (database.ts's parsers).
 */
export function columnTypes(db: AnyDb) {
  const pg = isPostgres(db);
  return {
    date: pg ? sql`timestamptz` : sql`varchar(30)`,
    /** A date declared `text` by the first migrations that held one. */
    dateText: pg ? sql`timestamptz` : sql`text`,
    bigint: pg ? sql`bigint` : sql`integer`,
    real: pg ? sql`double precision` : sql`real`,
    blob: pg ? sql`bytea` : sql`blob`,
  };
}

/**
 * Creates PostgreSQL's `nocase` collation, so that queries say `COLLATE NOCASE` on both databases: an ICU collation,
 * case-insensitive and accent-sensitive. It differs from SQLite's NOCASE only in folding the case of non-ASCII letters
 * too (É = é). Sorts that must give SQLite's order compare `lower(x)` instead, which folds ASCII only on both (the
 * PostgreSQL database has the C locale: database.ts).
 */
export async function createNocase(db: AnyDb): Promise<void> {
  if (isPostgres(db))
    await sql`CREATE COLLATION IF NOT EXISTS nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false)`.execute(
      db,
    );
}

/**
 * The strings of a JSON array (a parameter) as a table `(value, key)`: `key` is the 0-based position. SQLite's
 * json_each, PostgreSQL's jsonb_array_elements_text with its ordinality.
 */
export function jsonArrayRows(db: AnyDb, json: string): RawBuilder<unknown> {
  return isPostgres(db)
    ? sql`(SELECT value, ordinality - 1 AS key FROM jsonb_array_elements_text(${json}::jsonb) WITH ORDINALITY)`
    : sql`json_each(${json})`;
}

/** The values of `expr` joined with `separator`, in `orderBy`'s order. */
export function groupConcat(
  db: AnyDb,
  expr: RawBuilder<unknown>,
  separator: string,
  orderBy: RawBuilder<unknown>,
): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`string_agg(${expr}, ${separator} ORDER BY ${orderBy})`
    : sql<string>`group_concat(${expr}, ${separator} ORDER BY ${orderBy})`;
}

/** Whether the JSON text in `column` holds `true` under `key` (a top-level key). */
export function jsonIsTrue(db: AnyDb, column: RawBuilder<unknown>, key: string): RawBuilder<boolean> {
  return isPostgres(db)
    ? sql<boolean>`(${column}::jsonb -> ${key}) = 'true'::jsonb`
    : sql<boolean>`json_extract(${column}, ${`$.${key}`}) = 1`;
}

/**
 * `first` (a table and its alias) read in the order of its index `index`, joined with `then` on `on`. SQLite is told
 * the index and the loop order (its sampled statistics never chose them: SeriesListQueries); PostgreSQL's planner,
 * with full statistics, is left to choose.
 */
export function walkIndex(
  db: AnyDb,
  first: string,
  index: string,
  then: string,
  on: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return isPostgres(db)
    ? sql`${sql.raw(first)} JOIN ${sql.raw(then)} ON ${on}`
    : sql`${sql.raw(first)} INDEXED BY ${sql.raw(index)} CROSS JOIN ${sql.raw(then)} ON ${on}`;
}

/** The LIKE that compares ASCII letters without regard to case: SQLite's LIKE, PostgreSQL's ILIKE (C locale). */
export const notLikeNocase = (db: AnyDb) => (isPostgres(db) ? 'not ilike' : 'not like');

/**
 * The key of a unique index on `column` without regard to ASCII case: SQLite's NOCASE, `lower()` on PostgreSQL (which
 * folds ASCII only in the C locale), so that both refuse the same names (`findByName` compares `lower()` on both).
 */
export const nocaseKey = (db: AnyDb, column: string): RawBuilder<unknown> =>
  isPostgres(db) ? sql`lower(${sql.ref(column)})` : sql`${sql.raw(column)} COLLATE NOCASE`;

/**
 * Holds `name`'s lock until the transaction `tx` ends, so that transactions of every connection and instance that
 * take it run one after the other: a PostgreSQL advisory lock. SQLite has one writer at a time already.
 */
export async function lockUntilCommit(tx: AnyDb, name: string): Promise<void> {
  if (isPostgres(tx)) await sql`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(tx);
}

/** Runs `fn` holding `name`'s lock (`lockUntilCommit`) in a transaction on PostgreSQL; as it is on SQLite. */
export function oneAtATime<D extends AnyDb, T>(db: D, name: string, fn: (tx: D) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return fn(db);
  const locked = async (tx: D) => {
    await lockUntilCommit(tx, name);
    return fn(tx);
  };
  return db.isTransaction ? locked(db) : (db.transaction().execute((tx) => locked(tx as unknown as D)) as Promise<T>);
}
