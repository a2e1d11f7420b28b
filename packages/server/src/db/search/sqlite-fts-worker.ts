/**
 * The search index's large backlogs, indexed on a worker thread (`sqlite-fts-indexer.ts`) with a connection of its
 * own to the same WAL database: better-sqlite3 is synchronous, so on the main thread every transaction holds every
 * request for as long as it runs, and a backlog of a million books is ~2 minutes of CPU (0.1 ms a document,
 * measured on the bench's library; a commit of 1,000 documents costs ~10% less CPU than ten of 100). Here it takes
 * the other core, its transactions can hold the write lock longer, and the planner statistics are computed in full
 * afterwards, while the event loop keeps answering.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import type { DB } from '../schema.js';
import { serve } from '../../media/worker-thread.js';
import { configureConnection, ImmediateSqliteDialect } from '../sqlite-connection.js';
import { indexPendingBatch } from './sqlite-fts.js';
import type { IndexAnswer, IndexCall } from './sqlite-fts-indexer.js';

/**
 * How long one transaction should hold the database's write lock. The main thread's writes (a scan's) wait for it
 * in SQLite's busy handler, which sleeps without using the CPU but holds their request: a fraction of a second.
 */
const TRANSACTION_TARGET_MS = 200;
/**
 * The pause between two transactions, in which a waiting writer of the main thread gets the lock: SQLite's busy
 * handler retries at most every 100 ms, so the pause is half of that and a writer gets in within a few retries.
 */
const PAUSE_MS = 50;
/** After this many documents, the whole database is analysed: the planner's statistics no longer describe it. */
const ANALYZE_AFTER = 1000;
/**
 * Rows sampled per index by ANALYZE. A full analysis of a million books takes seconds; the default sample of
 * `PRAGMA optimize` (400) caps every "rows per value" estimate at ~400, so a library of 500,000 books looked as
 * selective as a tag of 5,000 and the planner read the whole library for "this library's books with this tag".
 */
const ANALYSIS_LIMIT = 20_000;

export default serve<IndexCall, IndexAnswer>(async ({ file }) => {
  const sqlite = new Database(file);
  // This thread can wait for the main thread's writes as long as they take.
  configureConnection(sqlite, { busyTimeoutMs: 60_000 });
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  try {
    let indexed = 0;
    let batch = 500;
    for (;;) {
      const started = performance.now();
      const { count, done } = await db.transaction().execute((tx) => indexPendingBatch(tx, batch));
      indexed += count;
      if (done) break;
      // Documents differ in size (a series carries its books' authors and tags): aim at the time, not a count.
      const ms = Math.max(1, performance.now() - started);
      // At least 500: on a loaded machine a transaction's wall time stretches, and pauses after tiny ones would
      // leave the thread idle more than indexing.
      batch = Math.round(Math.min(20_000, Math.max(500, (batch * TRANSACTION_TARGET_MS) / ms)));
      await sleep(PAUSE_MS);
    }
    const analysed = indexed >= ANALYZE_AFTER;
    if (analysed) await analyse(db);
    return { indexed, analysed };
  } finally {
    await db.destroy();
  }
});

/** ANALYZE, one table at a time (each is a write transaction of its own), with the main thread's writes between. */
async function analyse(db: Kysely<DB>): Promise<void> {
  await sql`PRAGMA analysis_limit = ${sql.raw(String(ANALYSIS_LIMIT))}`.execute(db);
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM sqlite_schema
    WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'`.execute(db);
  for (const { name } of rows) {
    await sql`ANALYZE ${sql.table(name)}`.execute(db);
    await sleep(PAUSE_MS);
  }
}
