import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

/*
 * Which database the tests run on. `QUIRE_TEST_DATABASE=postgres` (npm run test:server:pg): every server the tests
 * start and every database they open directly is a fresh PostgreSQL database in the run's cluster
 * (support/postgres-cluster.ts); otherwise SQLite files in the test's data dir, as the server makes them.
 */

export const POSTGRES_ADMIN_URL = 'quirePostgresAdminUrl';
export const TEMPLATE_DATABASE = 'quire_template';

declare module 'vitest' {
  export interface ProvidedContext {
    quirePostgresAdminUrl: string;
  }
}

export const onPostgres = () => process.env.QUIRE_TEST_DATABASE === 'postgres';

function adminUrl(): string {
  // Child processes of a test (a server started with tsx) have no vitest context: the environment carries it.
  const url = process.env.QUIRE_TEST_POSTGRES_ADMIN_URL ?? inject(POSTGRES_ADMIN_URL);
  if (!url) throw new Error('QUIRE_TEST_DATABASE=postgres, but no cluster was started (vitest globalSetup)');
  return url;
}

const urlOf = (name: string) => adminUrl().replace(/\/postgres$/, `/${name}`);

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(adminUrl());
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The database of a data dir: one per dir, so that a server started again on the dir finds its data. */
const nameOf = (dataDir: string) => `quire_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;

/**
 * Where a server on `dataDir` keeps its data: a PostgreSQL URL (the database is created, migrated, the first time;
 * `empty`: not migrated) or the SQLite file the server would open there.
 */
export async function databaseOf(dataDir: string, opts: { empty?: boolean } = {}): Promise<string> {
  if (!onPostgres()) return join(dataDir, 'database.sqlite');
  const name = nameOf(dataDir);
  await admin(async (c) => {
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return;
    const template = opts.empty ? 'template0' : TEMPLATE_DATABASE;
    await c.query(`CREATE DATABASE ${name} TEMPLATE ${template} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  });
  return urlOf(name);
}

/** The environment a server on `dataDir` needs to use the test database (nothing on SQLite). */
export async function databaseEnv(dataDir: string): Promise<Record<string, string>> {
  return onPostgres() ? { QUIRE_DATABASE_URL: await databaseOf(dataDir) } : {};
}

/** Drops the database of a data dir that is being removed (closing connections still open). */
export async function dropDatabaseOf(dataDir: string): Promise<void> {
  if (!onPostgres()) return;
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${nameOf(dataDir)} WITH (FORCE)`));
}

/** A database of its own for a test that opens one directly, without a data dir. */
export const freshDatabase = (opts: { empty?: boolean } = {}) => databaseOf(`/nowhere/${randomUUID()}`, opts);

/**
 * The database of a server on `dataDir` as another process reads it (the tests that kill a server check what it
 * left): rows of plain SQL with `?` parameters, on SQLite (read-only) or PostgreSQL.
 */
export interface DataDirDatabase {
  rows<T>(text: string, ...params: unknown[]): Promise<T[]>;
  /** The first column of the first row. */
  value<T>(text: string, ...params: unknown[]): Promise<T>;
  /**
   * The queued or running tasks of a kind, with the runner holding each (null: waiting): rows of the `task` table on
   * SQLite, graphile-worker's jobs on PostgreSQL (tasks/pg-queue.ts).
   */
  tasksOf(kind: string): Promise<{ owner: string | null }[]>;
  /** What the database reports about its own soundness: SQLite's integrity and foreign-key checks. */
  expectSound(expect: (integrity: unknown, foreignKeys: unknown) => void): void;
  close(): Promise<void>;
}

export async function openDataDirDatabase(
  dataDir: string,
  opts: { readonly?: boolean } = {},
): Promise<DataDirDatabase> {
  if (!onPostgres()) {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(dataDir, 'database.sqlite'), {
      readonly: opts.readonly ?? false,
      fileMustExist: true,
    });
    return {
      rows: async <T>(text: string, ...params: unknown[]) => db.prepare(text).all(...params) as T[],
      value: async <T>(text: string, ...params: unknown[]) =>
        db
          .prepare(text)
          .pluck()
          .get(...params) as T,
      tasksOf: async (kind) =>
        db.prepare('SELECT owner FROM task WHERE kind = ?').all(kind) as { owner: string | null }[],
      expectSound: (check) => check(db.pragma('integrity_check', { simple: true }), db.pragma('foreign_key_check')),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({
    connectionString: await databaseOf(dataDir),
    // counts as numbers, as SQLite gives them
    types: {
      getTypeParser: (id: number, format?: 'text' | 'binary') =>
        id === 20 ? Number : pg.types.getTypeParser(id, format),
    } as pg.CustomTypesConfig,
  });
  await client.connect();
  let n = 0;
  const numbered = (text: string) => text.replace(/\?/g, () => `$${++n}`);
  const rows = async <T>(text: string, ...params: unknown[]) => {
    n = 0;
    return (await client.query(numbered(text), params)).rows as T[];
  };
  return {
    rows,
    value: async <T>(text: string, ...params: unknown[]) => {
      const [row] = await rows<Record<string, unknown>>(text, ...params);
      return (row ? Object.values(row)[0] : undefined) as T;
    },
    tasksOf: (kind) => rows('SELECT locked_by AS owner FROM graphile_worker.jobs WHERE task_identifier = ?', kind),
    // PostgreSQL checks foreign keys on every write and recovers from a crash through its WAL: nothing to ask.
    expectSound: (check) => check('ok', []),
    close: () => client.end(),
  };
}
