import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { newId } from '../../src/domain/ids.js';
import type { Db } from '../../src/db/database.js';
import { indexPendingBatch } from '../../src/db/search/sqlite-fts.js';
import { watchTurns } from '../support/event-loop.js';
import { onPostgres } from '../support/postgres.js';
import { claim, startServer, type TestServer } from '../support/server.js';

/**
 * A large search backlog (a first start on a big library, a scan of thousands of books) is indexed on a worker
 * thread with its own connection: the event loop keeps answering, and the planner gets full statistics afterwards.
 */

const LIBRARIES = 2;
const SERIES = 60;
const BOOKS_PER_SERIES = 50;
const BOOKS = SERIES * BOOKS_PER_SERIES;

let s: TestServer;
let auth: string;

const search = (text: string) =>
  s.fetch('/api/v1/books/list?unpaged=true', {
    method: 'POST',
    headers: { authorization: auth },
    json: { fullTextSearch: text },
  });

beforeAll(async () => {
  s = await startServer();
  auth = (await claim(s)).authorization;
  // The same search once before the backlog: what a first request costs (compiling its code) is not the indexing's.
  await search('quokka');
  const db = s.app.deps.db;
  const now = new Date().toISOString();
  // Written straight into the database, as an upgrade or a copied database meets the server: every row is noted
  // as pending by the search triggers, and nothing is indexed yet.
  await db.transaction().execute(async (tx) => {
    const libraries = Array.from({ length: LIBRARIES }, (_, i) => ({
      id: newId(),
      name: `Library ${i}`,
      root: pathToFileURL(`/data/${i}`).href,
      created_date: now,
      last_modified_date: now,
    }));
    await tx.insertInto('library').values(libraries).execute();
    for (let n = 0; n < SERIES; n++) {
      const seriesId = newId();
      const library = libraries[n % LIBRARIES]!;
      const title = n === 7 ? 'Zanzibar Quokka' : `Series ${n}`;
      const folder = `${library.root}/${n}`;
      await tx
        .insertInto('series')
        .values({
          id: seriesId,
          library_id: library.id,
          name: title,
          url: `${folder}/`,
          file_last_modified: now,
          created_date: now,
          last_modified_date: now,
          book_count: BOOKS_PER_SERIES,
        })
        .execute();
      await tx
        .insertInto('series_metadata')
        .values({ series_id: seriesId, title, title_sort: title, created_date: now, last_modified_date: now })
        .execute();
      const books = Array.from({ length: BOOKS_PER_SERIES }, (_, i) => ({
        id: newId(),
        series_id: seriesId,
        library_id: library.id,
        name: `${title} ${i + 1}`,
        url: `${folder}/${i + 1}.cbz`,
        number: i + 1,
        file_last_modified: now,
        file_size: 1000,
        created_date: now,
        last_modified_date: now,
      }));
      await tx.insertInto('book').values(books).execute();
      await tx
        .insertInto('book_metadata')
        .values(
          books.map((b, i) => ({
            book_id: b.id,
            title: b.name,
            number: String(i + 1),
            number_sort: i + 1,
            created_date: now,
            last_modified_date: now,
          })),
        )
        .execute();
    }
  });
}, 120_000);

afterAll(() => s?.close());

// SQLite's indexing thread and statistics; on PostgreSQL batches take turns with other writers on the pool.
describe.skipIf(onPostgres())(`a search backlog of ${BOOKS} books`, () => {
  it('is indexed without long turns of the event loop, then the database is analysed in full', async () => {
    const turns = watchTurns();
    const res = await search('quokka');
    turns.stop();
    const longestTurnWorkMs = turns.longest.workMs;
    expect(res.status).toBe(200);
    // The first search waits for the whole backlog: every book of the series is found.
    expect(((await res.json()) as { totalElements: number }).totalElements).toBe(BOOKS_PER_SERIES);
    // Indexing these books on the event loop takes ~1 s in transactions this size, ~15 ms a transaction of 100.
    expect(longestTurnWorkMs).toBeLessThan(100);
    // Full statistics: each library holds half the books. The bounded analysis the event loop can afford (400
    // rows a sample) estimated a few hundred, so that a library looked as selective as a tag.
    const stat = await sql<{
      stat: string;
    }>`SELECT stat FROM sqlite_stat1 WHERE idx = 'book_library_file_size_idx'`.execute(s.app.deps.db);
    expect(stat.rows[0]?.stat).toBe(`${BOOKS} ${BOOKS / LIBRARIES} ${BOOKS / LIBRARIES}`);
  }, 120_000);
});

// PostgreSQL indexes the backlog on the pool, after fresh statistics of the tables the documents are read from:
// until autovacuum analyses freshly written tables, the planner reads a batch's authors and tags by sequential scans.
describe.runIf(onPostgres())(`a search backlog of ${BOOKS} books on PostgreSQL`, () => {
  it('is indexed after the tables the documents come from are analysed', async () => {
    const res = await search('quokka');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { totalElements: number }).totalElements).toBe(BOOKS_PER_SERIES);
    // last_analyze is an explicit ANALYZE's (autovacuum's is last_autoanalyze).
    const analysed = await sql<{ relname: string }>`
      SELECT relname FROM pg_stat_user_tables
      WHERE relname IN ('book', 'book_metadata', 'book_metadata_author', 'series_metadata')
        AND last_analyze IS NOT NULL`.execute(s.app.deps.db);
    expect(analysed.rows.map((r) => r.relname).sort()).toEqual([
      'book',
      'book_metadata',
      'book_metadata_author',
      'series_metadata',
    ]);
  }, 120_000);

  const rename = (tx: Db, book: { id: string; name: string }) =>
    tx
      .updateTable('book')
      .set({ name: `${book.name} renamed` })
      .where('id', '=', book.id)
      .execute();

  /**
   * A writer's transaction does `first`, an indexing batch starts beside it, and half a second later (the batch
   * under way) the writer does `then` and commits. Both outcomes, the writer's and the batch's.
   */
  async function besideWriter(first: (tx: Db) => Promise<unknown>, then: (tx: Db) => Promise<unknown>) {
    const db = s.app.deps.db;
    let indexed: Promise<{ count: number; done: boolean }> | undefined;
    const writer = db.transaction().execute(async (tx) => {
      await first(tx);
      indexed = db.transaction().execute((itx) => indexPendingBatch(itx, 100));
      await new Promise((r) => setTimeout(r, 500));
      await then(tx);
    });
    return Promise.allSettled([writer, writer.then(() => indexed!)]);
  }

  const notedBooks = async () =>
    (await s.app.deps.db.selectFrom('search_pending').select('id').where('kind', '=', 'book').execute())
      .map((n) => n.id)
      .sort();

  it('indexes beside a writer that holds notes, without a deadlock', async () => {
    const db = s.app.deps.db;
    // the backlog indexed (the test above); two books noted again, as a scan's changes note them
    const [x, y] = await db.selectFrom('book').select(['id', 'name']).orderBy('id').limit(2).execute();
    await db
      .insertInto('search_pending')
      .values([x!, y!].map((b) => ({ kind: 'book', id: b.id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    // A scan's transaction renames Y (its note now held until it commits), then X. Before the indexer skipped held
    // notes, it took Y's note and waited for the writer, which then waited for X's: PostgreSQL detected a deadlock
    // after a second and failed one of them.
    const [written, batch] = await besideWriter(
      (tx) => rename(tx, y!),
      (tx) => rename(tx, x!),
    );
    expect(written.status).toBe('fulfilled');
    expect(batch.status).toBe('fulfilled');
    // X indexed and noted again by the writer; Y still noted, for a later batch: no change is lost
    expect(await notedBooks()).toEqual([x!.id, y!.id].sort());
  }, 60_000);

  it("indexes beside a writer that holds a book's row, without a deadlock", async () => {
    const db = s.app.deps.db;
    const [x] = await db.selectFrom('book').select(['id', 'name']).orderBy('id', 'desc').limit(1).execute();
    await db.deleteFrom('search_pending').execute();
    await db.insertInto('search_pending').values({ kind: 'book', id: x!.id }).execute();
    // A writer holds X's row (a change the search does not see), then renames it. Writing X's document sets the
    // row's sort title: an indexer that took X's note waited for the writer, whose note of the rename then waited
    // for the indexer.
    const [written, batch] = await besideWriter(
      (tx) => tx.updateTable('book').set({ file_size: 2000 }).where('id', '=', x!.id).execute(),
      (tx) => rename(tx, x!),
    );
    expect(written.status).toBe('fulfilled');
    expect(batch).toEqual({ status: 'fulfilled', value: { count: 0, done: true } });
    expect(await notedBooks()).toEqual([x!.id]);
  }, 60_000);
});
