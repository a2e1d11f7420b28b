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

/** `expr` compared without regard to ASCII case, as SQLite's NOCASE does (other letters compare as they are). */
export function nocase(db: AnyDb, expr: RawBuilder<unknown>): RawBuilder<unknown> {
  // With the C collation, PostgreSQL's lower() folds ASCII letters only: the same as NOCASE.
  return isPostgres(db) ? sql`lower(${expr} COLLATE "C")` : sql`${expr} COLLATE NOCASE`;
}

/** `nocase` of a column or expression given as SQL text (sort keys). */
export const nocaseRaw = (db: AnyDb, expr: string) => nocase(db, sql.raw(expr));

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

/** The value at `path` (`$.a.b`) of a JSON text column, as text. */
export function jsonText(db: AnyDb, column: RawBuilder<unknown>, path: string): RawBuilder<string | null> {
  if (!isPostgres(db)) return sql<string | null>`json_extract(${column}, ${path})`;
  const keys = path.replace(/^\$\.?/, '').split('.').filter(Boolean);
  return sql<string | null>`(${column}::jsonb #>> ${`{${keys.join(',')}}`})`;
}
