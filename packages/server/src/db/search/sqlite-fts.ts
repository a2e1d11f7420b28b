import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../database.js';
import { isPostgres } from '../dialect.js';
import { AUTHOR_ROLES, FIELDS, EVERYTHING, type SearchEntity } from './fields.js';
import { SEARCH_HIT_LIMIT, type FullTextSearch } from './full-text-search.js';
import { FTS5, toMatchExpressions, type MatchLanguage } from './match.js';
import { sortKey } from '../../domain/text.js';
import { documentField } from './text.js';
import { indexOffThread } from './sqlite-fts-indexer.js';

/**
 * FullTextSearch on SQLite FTS5 (migration 0006). Triggers note changed series and books in `search_pending`;
 * `refresh` rebuilds their documents in small transactions, so that a search or a list never reads stale text
 * and a large scan does not hold the database for long.
 */

/** Documents per refresh transaction: ~15 ms, so that a scan's refresh never holds requests for long. */
const BATCH = 100;
/**
 * A backlog of this many documents or more (a first start on a large library, a scan of thousands of books, an
 * upgrade that re-indexes) is indexed by a worker thread with its own connection (`sqlite-fts-worker.ts`), in
 * transactions a hundred times larger and with full planner statistics afterwards, without holding the event loop.
 */
const OFF_THREAD_BACKLOG = 1000;
const REFRESH_DELAY_MS = 1500;
const OPTIMIZE_AFTER = 1000;

type Doc = Record<string, string>;

const chunks = <T>(xs: readonly T[], size = 500): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
};

const groupBy = <T, K extends keyof T>(rows: T[], key: K): Map<T[K], T[]> => {
  const m = new Map<T[K], T[]>();
  for (const r of rows) {
    const list = m.get(r[key]);
    if (list) list.push(r);
    else m.set(r[key], [r]);
  }
  return m;
};

const bool = (v: unknown) => (v ? 'true' : 'false');
const year = (date: string | null | undefined) => (date ? date.slice(0, 4) : '');

/** Author names into the `author` column and the column of their role, when it has one. */
function authorColumns(authors: { name: string; role: string }[] | undefined): Doc {
  const doc: Doc = { author: documentField((authors ?? []).map((a) => a.name)) };
  for (const role of AUTHOR_ROLES) {
    doc[role] = documentField((authors ?? []).filter((a) => a.role.toLowerCase() === role).map((a) => a.name));
  }
  return doc;
}

export class SqliteFullTextSearch implements FullTextSearch {
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(protected readonly db: Db) {}

  /** The language of the expressions `matching` reads. */
  protected readonly language: MatchLanguage = FTS5;

  /** The condition selecting the documents of `table` that `match` selects. */
  protected matching(table: RawBuilder<unknown>, match: string): RawBuilder<unknown> {
    return sql`${table} MATCH ${match}`;
  }

  /** The first `limit` documents of `from` that `match` selects, in the table's order. */
  protected firstHits(from: RawBuilder<unknown>, match: string, limit: number): RawBuilder<{ r: number }> {
    return sql<{ r: number }>`SELECT rowid AS r FROM ${from} WHERE ${this.matching(from, match)} LIMIT ${limit}`;
  }

  /** Keeps other indexers out until `tx` ends: SQLite's one writer already does. */
  protected async lockIndexer(_tx: Db): Promise<void> {}

  /**
   * Indexes a large backlog on the indexing thread (`sqlite-fts-indexer.ts`), with its own connection to the file.
   * False when there is no file another connection could open (a database in memory): indexed here, as a small
   * backlog is.
   */
  protected async indexOffThread(): Promise<boolean> {
    const file = await databaseFile(this.db);
    if (file === null) return false;
    const { analysed } = await indexOffThread(file);
    // This connection reads the statistics the thread wrote only when told to.
    if (analysed) await sql`ANALYZE sqlite_schema`.execute(this.db);
    return true;
  }

  /**
   * After a large change the query planner needs fresh statistics (a scan of thousands of books, an upgrade):
   * bounded analysis, so that this costs milliseconds on the event loop, not seconds.
   */
  protected async analyse(): Promise<void> {
    await sql`PRAGMA analysis_limit = 400`.execute(this.db);
    await sql`PRAGMA optimize = 0x10002`.execute(this.db);
  }

  async search(entity: SearchEntity, query: string | null | undefined, limit = SEARCH_HIT_LIMIT) {
    if (query === null || query === undefined || query.trim() === '') return null;
    const fields = FIELDS[entity];
    const expressions = toMatchExpressions(query, fields, this.language);
    if (expressions === null) return [];
    await this.refresh();
    const table = sql.table(fields.table);
    // The title tiers read the titles' own table (migrations 0023, 0025) when their expression names no other
    // column: in the whole table a condition on the title walks the doclists of every column.
    const titleTable = fields.titleTable !== undefined && expressions.titlesOnly ? sql.table(fields.titleTable) : table;
    const rowids = async (match: string, from = table) =>
      (await this.firstHits(from, match, limit).execute(this.db)).rows.map((x) => x.r);
    try {
      // Ranking without scoring every hit (bm25 over thousands of hits costs tens of milliseconds): titles holding
      // the words whole, then at the start of a word, then anywhere, then the other hits (authors, tags,
      // summary…); shorter titles first within each tier. Each tier reads at most `limit` hits.
      // Whole words and word starts in titles are subsets of "anywhere in a title": when that has no hit (an
      // author's name, a word of summaries), neither has, and their queries, which read the same trigram lists
      // through a library's whole index, are skipped.
      const titleAny = expressions.titleAny === null ? [] : await rowids(expressions.titleAny, titleTable);
      const titled = titleAny.length > 0;
      const tiers: [string | number[] | null, typeof table][] = [
        [titled ? expressions.titleWhole : null, titleTable],
        [titled ? expressions.titleStart : null, titleTable],
        [titleAny, titleTable],
        [expressions.all, table],
      ];
      const tierOf = new Map<number, number>();
      for (const [tier, [match, from]] of tiers.entries()) {
        if (match === null || tierOf.size >= limit) continue;
        const hits = typeof match === 'string' ? await rowids(match, from) : match;
        for (const r of hits) if (!tierOf.has(r)) tierOf.set(r, tier);
      }
      const hits = await this.hitsOf(entity, [...tierOf.keys()]);
      return hits
        .sort((a, b) => tierOf.get(a.docid)! - tierOf.get(b.docid)! || a.length - b.length || a.docid - b.docid)
        .slice(0, limit)
        .map((h) => h.id);
    } catch {
      // An expression FTS5 refuses is a query Komga could not parse either: no hits.
      return [];
    }
  }

  /** The entity id and title length of FTS rows. */
  protected async hitsOf(
    entity: SearchEntity,
    docids: number[],
  ): Promise<{ docid: number; id: string; length: number }[]> {
    const out: { docid: number; id: string; length: number }[] = [];
    for (const part of chunks(docids)) {
      const rows =
        entity === 'series'
          ? await this.db
              .selectFrom('series_search')
              .select((eb) => ['docid', 'series_id as id', eb.fn<number>('length', ['title_fold']).as('length')])
              .where('docid', 'in', part)
              .execute()
          : await this.db
              .selectFrom('book_search')
              .select((eb) => ['docid', 'book_id as id', eb.fn<number>('length', ['title_fold']).as('length')])
              .where('docid', 'in', part)
              .execute();
      out.push(...rows);
    }
    return out;
  }

  scheduleRefresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refresh().catch(() => undefined);
    }, REFRESH_DELAY_MS);
    this.timer.unref();
  }

  refresh(): Promise<void> {
    // One refresh at a time; a caller arriving during one waits for it and for what was noted meanwhile.
    const next = (this.running ?? Promise.resolve()).catch(() => undefined).then(() => this.drain());
    const tracked = next.finally(() => {
      if (this.running === tracked) this.running = null;
    });
    this.running = tracked;
    return tracked;
  }

  private async drain(): Promise<void> {
    // The usual case, nothing to do, costs one indexed read and no transaction.
    const backlog = await this.db
      .selectFrom((eb) => eb.selectFrom('search_pending').select('id').limit(OFF_THREAD_BACKLOG).as('p'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(backlog.n) === 0) return;
    if (Number(backlog.n) >= OFF_THREAD_BACKLOG && (await this.indexOffThread())) return;
    let indexed = 0;
    for (;;) {
      const { count, done } = await this.db.transaction().execute(async (tx) => {
        await this.lockIndexer(tx);
        return indexPendingBatch(tx, BATCH);
      });
      indexed += count;
      if (done) break;
      // Let requests in between batches: better-sqlite3 is synchronous, a long refresh would hold the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // After a change of thousands of documents the query planner needs fresh statistics (a larger backlog is
    // analysed fully, off the loop).
    if (indexed >= OPTIMIZE_AFTER) await this.analyse();
  }
}

/** The file of the connection's main database, or null when it is in memory or temporary. */
async function databaseFile(db: Db): Promise<string | null> {
  const { rows } = await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(db);
  return rows.find((r) => r.name === 'main')?.file || null;
}

/**
 * Indexes up to `batch` pending documents in the caller's transaction: the series and books noted in
 * `search_pending`, then their notes are removed. `done` when nothing is left pending.
 */
export async function indexPendingBatch(tx: Db, batch: number): Promise<{ count: number; done: boolean }> {
  const postgres = isPostgres(tx);
  // PostgreSQL: see heldByWriters. A note a writer holds is skipped, for a later batch.
  const pending = await tx
    .selectFrom('search_pending')
    .select(['kind', 'id'])
    .limit(batch)
    .$if(postgres, (qb) => qb.forUpdate().skipLocked())
    .execute();
  if (pending.length === 0) return { count: 0, done: true };
  let seriesIds = pending.filter((p) => p.kind === 'series').map((p) => p.id);
  let bookIds = pending.filter((p) => p.kind === 'book').map((p) => p.id);
  // A one-shot book's document carries its series' fields.
  const oneshots = new Map<string, string[]>();
  for (const part of chunks(seriesIds)) {
    const rows = await tx
      .selectFrom('book')
      .select(['id', 'series_id'])
      .where('series_id', 'in', part)
      .where('oneshot', '=', 1)
      .execute();
    for (const b of rows) oneshots.set(b.series_id, [...(oneshots.get(b.series_id) ?? []), b.id]);
  }
  if (postgres) {
    const held = await heldByWriters(tx, [...bookIds, ...[...oneshots.values()].flat()]);
    bookIds = bookIds.filter((id) => !held.has(id));
    seriesIds = seriesIds.filter((id) => !(oneshots.get(id) ?? []).some((b) => held.has(b)));
  }
  const count = seriesIds.length + bookIds.length;
  // Taken off the list before the documents are read: a change written meanwhile notes its entity again (on
  // PostgreSQL its note waits for this transaction), so it is never lost.
  for (const [kind, ids] of [
    ['series', seriesIds],
    ['book', bookIds],
  ] as const) {
    for (const part of chunks(ids)) {
      await tx.deleteFrom('search_pending').where('kind', '=', kind).where('id', 'in', part).execute();
    }
  }
  const documents = [...new Set([...bookIds, ...seriesIds.flatMap((id) => oneshots.get(id) ?? [])])];
  for (const part of chunks(seriesIds)) await indexSeries(tx, part);
  for (const part of chunks(documents)) await indexBooks(tx, part);
  // nothing could be taken: the writers' commits bring the next refresh (their events)
  return { count, done: pending.length < batch || count === 0 };
}

/**
 * Of these books, those whose rows a writer's transaction holds; the others are locked for this batch. On
 * PostgreSQL the indexer must never wait for a writer: a writer changes a book's row and then notes it (an AFTER
 * trigger's upsert, migrations/postgres.ts), which waits for a batch that took the note, and writing a book's
 * document updates the book's row (its sort title, migration 0022), which would wait for the writer: a deadlock that
 * failed scans and deletions under load (CI, PostgreSQL pass). A held book's note stays for a later batch, and so
 * does its series' note when it is the series' one-shot.
 */
async function heldByWriters(tx: Db, ids: readonly string[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (const part of chunks([...new Set(ids)])) {
    const locked = await tx
      .selectFrom('book')
      .select('id')
      .where('id', 'in', part)
      .forNoKeyUpdate()
      .skipLocked()
      .execute();
    const free = new Set(locked.map((b) => b.id));
    const existing = await tx.selectFrom('book').select('id').where('id', 'in', part).execute();
    for (const b of existing) if (!free.has(b.id)) held.add(b.id);
  }
  return held;
}

async function replaceDocuments(
  tx: Db,
  entity: SearchEntity,
  ids: string[],
  docs: { id: string; folds: Record<string, string>; doc: Doc }[],
): Promise<void> {
  const fields = FIELDS[entity];
  const table = sql.table(fields.table);
  const mapTable = entity === 'series' ? 'series_search' : 'book_search';
  const idColumn = entity === 'series' ? 'series_id' : 'book_id';
  const old = await sql<{
    docid: number;
  }>`SELECT docid FROM ${sql.table(mapTable)} WHERE ${sql.ref(idColumn)} IN (${sql.join(ids)})`.execute(tx);
  const titleTable = fields.titleTable === undefined ? null : sql.table(fields.titleTable);
  if (old.rows.length) {
    const docids = sql.join(old.rows.map((r) => r.docid));
    await sql`DELETE FROM ${table} WHERE rowid IN (${docids})`.execute(tx);
    if (titleTable) await sql`DELETE FROM ${titleTable} WHERE rowid IN (${docids})`.execute(tx);
    await sql`DELETE FROM ${sql.table(mapTable)} WHERE docid IN (${docids})`.execute(tx);
  }
  if (docs.length === 0) return;
  const foldColumns = Object.keys(docs[0]!.folds);
  const inserted = await sql<{ docid: number; id: string }>`
    INSERT INTO ${sql.table(mapTable)} (${sql.join([idColumn, ...foldColumns].map((c) => sql.ref(c)))})
    VALUES ${sql.join(docs.map((d) => sql`(${sql.join([d.id, ...foldColumns.map((c) => d.folds[c] ?? '')])})`))}
    RETURNING docid, ${sql.ref(idColumn)} AS id`.execute(tx);
  const docidOf = new Map(inserted.rows.map((r) => [r.id, r.docid]));
  const columns = [sql.raw('rowid'), ...fields.columns.map((c) => sql.ref(c))];
  for (const part of chunks(docs, 100)) {
    await sql`INSERT INTO ${table} (${sql.join(columns)}) VALUES ${sql.join(
      part.map(
        (d) =>
          sql`(${sql.join([docidOf.get(d.id)!, ...fields.columns.map((c) => (c === EVERYTHING ? ' all ' : (d.doc[c] ?? '')))])})`,
      ),
    )}`.execute(tx);
    await insertTitles(
      tx,
      entity,
      part.map((d) => ({ docid: docidOf.get(d.id)!, doc: d.doc })),
    );
  }
}

/** Rows of the titles' own table of `entity` (`EntityFields.titleTable`): the title columns of its documents. */
async function insertTitles(tx: Db, entity: SearchEntity, docs: { docid: number; doc: Doc }[]): Promise<void> {
  const { titleTable, titles } = FIELDS[entity];
  if (!titleTable || docs.length === 0) return;
  await sql`INSERT INTO ${sql.table(titleTable)} (${sql.join([sql.raw('rowid'), ...titles.map((c) => sql.ref(c))])})
    VALUES ${sql.join(docs.map((d) => sql`(${sql.join([d.docid, ...titles.map((c) => d.doc[c] ?? '')])})`))}`.execute(
    tx,
  );
}

/** The title column of a series document: its title, its sort title when it differs, its alternate titles. */
function seriesTitleField(
  series: { title: string; title_sort: string },
  alternates: { title: string }[] | undefined,
): string {
  return documentField([
    series.title,
    ...(series.title_sort !== series.title ? [series.title_sort] : []),
    ...(alternates ?? []).map((a) => a.title),
  ]);
}

const alternateTitles = (tx: Db, seriesIds: string[]) =>
  tx
    .selectFrom('series_metadata_alternate_title')
    .select(['series_id', 'title'])
    .where('series_id', 'in', seriesIds)
    .execute();

/**
 * Fills the series titles' own table (migration 0023) for every series indexed so far, from the rows and with the
 * code the indexer reads and writes them with (the same title column as in `series_fts`): a few seconds at
 * 1,000,000 books, where re-indexing every series document took ~90 s of CPU and left the old documents' space in
 * the index. A series changed meanwhile is pending and has its documents rebuilt by the next refresh anyway.
 */
export async function fillSeriesTitles(db: Db): Promise<void> {
  for (let after = 0; ;) {
    const indexed = await db
      .selectFrom('series_search as ss')
      .innerJoin('series_metadata as sm', 'sm.series_id', 'ss.series_id')
      .select(['ss.docid', 'ss.series_id', 'sm.title', 'sm.title_sort'])
      .where('ss.docid', '>', after)
      .orderBy('ss.docid')
      .limit(500)
      .execute();
    if (indexed.length === 0) return;
    after = indexed.at(-1)!.docid;
    const alternateOf = groupBy(
      await alternateTitles(
        db,
        indexed.map((r) => r.series_id),
      ),
      'series_id',
    );
    for (const part of chunks(indexed, 100)) {
      const docs = part.map((r) => ({
        docid: r.docid,
        doc: { title: seriesTitleField(r, alternateOf.get(r.series_id)) },
      }));
      await insertTitles(db, 'series', docs);
    }
  }
}

/** The title columns of a book document (`BOOK_FIELDS.titles`): its title and its ISBN. */
const bookTitleColumns = (book: { title: string; isbn: string }): Doc => ({
  title: documentField([book.title]),
  isbn: documentField([book.isbn]),
});

/**
 * Fills the book titles' own table (migration 0025) for every book indexed so far, as `fillSeriesTitles` does for
 * series: from the rows and with the code the indexer writes the title columns of `book_fts` with.
 */
export async function fillBookTitles(db: Db): Promise<void> {
  for (let after = 0; ;) {
    const indexed = await db
      .selectFrom('book_search as bs')
      .innerJoin('book_metadata as bm', 'bm.book_id', 'bs.book_id')
      .select(['bs.docid', 'bm.title', 'bm.isbn'])
      .where('bs.docid', '>', after)
      .orderBy('bs.docid')
      .limit(500)
      .execute();
    if (indexed.length === 0) return;
    after = indexed.at(-1)!.docid;
    for (const part of chunks(indexed, 100)) {
      await insertTitles(
        db,
        'book',
        part.map((r) => ({ docid: r.docid, doc: bookTitleColumns(r) })),
      );
    }
  }
}

async function indexSeries(tx: Db, ids: string[]): Promise<void> {
  const rows = await tx
    .selectFrom('series as s')
    .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
    .leftJoin('book_metadata_aggregation as ag', 'ag.series_id', 's.id')
    .select([
      's.id',
      's.name',
      's.deleted_date',
      's.oneshot',
      's.book_count',
      'sm.title',
      'sm.title_sort',
      'sm.publisher',
      'sm.status',
      'sm.reading_direction',
      'sm.age_rating',
      'sm.language',
      'sm.total_book_count',
      'sm.summary',
      'ag.release_date',
      'ag.summary as ag_summary',
    ])
    .where('s.id', 'in', ids)
    .execute();
  const found = rows.map((r) => r.id);
  const none = Promise.resolve([]);
  const [alternate, tags, genres, labels] = await Promise.all([
    found.length ? alternateTitles(tx, found) : none,
    found.length
      ? tx.selectFrom('series_metadata_tag').select(['series_id', 'tag']).where('series_id', 'in', found).execute()
      : none,
    found.length
      ? tx.selectFrom('series_metadata_genre').select(['series_id', 'genre']).where('series_id', 'in', found).execute()
      : none,
    found.length
      ? tx
          .selectFrom('series_metadata_sharing')
          .select(['series_id', 'label'])
          .where('series_id', 'in', found)
          .execute()
      : none,
  ]);
  const alternateOf = groupBy(alternate, 'series_id');
  const tagsOf = groupBy(tags, 'series_id');
  const genresOf = groupBy(genres, 'series_id');
  const labelsOf = groupBy(labels, 'series_id');
  const [bookTags, authors] = found.length
    ? await Promise.all([
        tx
          .selectFrom('book_metadata_aggregation_tag')
          .select(['series_id', 'tag'])
          .where('series_id', 'in', found)
          .execute(),
        tx
          .selectFrom('book_metadata_aggregation_author')
          .select(['series_id', 'name', 'role'])
          .where('series_id', 'in', found)
          .execute(),
      ])
    : [[], []];
  const bookTagsOf = groupBy(bookTags, 'series_id');
  const authorsOf = groupBy(authors, 'series_id');

  const docs = rows.map((r) => {
    const doc: Doc = {
      title: seriesTitleField(r, alternateOf.get(r.id)),
      publisher: documentField([r.publisher]),
      status: documentField([r.status]),
      reading_direction: documentField([r.reading_direction]),
      age_rating: documentField([r.age_rating === null ? null : String(r.age_rating)]),
      language: documentField([r.language]),
      series_tag: documentField((tagsOf.get(r.id) ?? []).map((t) => t.tag)),
      book_tag: documentField((bookTagsOf.get(r.id) ?? []).map((t) => t.tag)),
      genre: documentField((genresOf.get(r.id) ?? []).map((g) => g.genre)),
      sharing_label: documentField((labelsOf.get(r.id) ?? []).map((l) => l.label)),
      total_book_count: documentField([r.total_book_count === null ? null : String(r.total_book_count)]),
      book_count: documentField([String(r.book_count)]),
      ...authorColumns(authorsOf.get(r.id)),
      release_date: documentField([year(r.release_date)]),
      deleted: documentField([bool(r.deleted_date)]),
      oneshot: documentField([bool(r.oneshot)]),
      complete: documentField([r.total_book_count === null ? null : bool(r.total_book_count === r.book_count)]),
      summary: documentField([r.summary, r.ag_summary !== r.summary ? r.ag_summary : null]),
    };
    return {
      id: r.id,
      folds: { title_fold: sortKey(r.title), title_sort_fold: sortKey(r.title_sort), name_fold: sortKey(r.name) },
      doc,
    };
  });
  await replaceDocuments(tx, 'series', ids, docs);
}

async function indexBooks(tx: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx
    .selectFrom('book as b')
    .innerJoin('book_metadata as bm', 'bm.book_id', 'b.id')
    .innerJoin('series as s', 's.id', 'b.series_id')
    .innerJoin('series_metadata as sm', 'sm.series_id', 'b.series_id')
    .leftJoin('media as m', 'm.book_id', 'b.id')
    .select([
      'b.id',
      'b.series_id',
      'b.name',
      'b.deleted_date',
      'b.oneshot',
      'bm.title',
      'bm.isbn',
      'bm.summary',
      'bm.release_date',
      'm.status as media_status',
      'sm.publisher',
      'sm.status as series_status',
      'sm.reading_direction',
      'sm.age_rating',
      'sm.language',
    ])
    .where('b.id', 'in', ids)
    .execute();
  const found = rows.map((r) => r.id);
  const oneshotSeries = rows.filter((r) => r.oneshot).map((r) => r.series_id);
  const [authors, tags, genres, labels] = found.length
    ? await Promise.all([
        tx
          .selectFrom('book_metadata_author')
          .select(['book_id', 'name', 'role'])
          .where('book_id', 'in', found)
          .execute(),
        tx.selectFrom('book_metadata_tag').select(['book_id', 'tag']).where('book_id', 'in', found).execute(),
        oneshotSeries.length
          ? tx
              .selectFrom('series_metadata_genre')
              .select(['series_id', 'genre'])
              .where('series_id', 'in', oneshotSeries)
              .execute()
          : [],
        oneshotSeries.length
          ? tx
              .selectFrom('series_metadata_sharing')
              .select(['series_id', 'label'])
              .where('series_id', 'in', oneshotSeries)
              .execute()
          : [],
      ])
    : [[], [], [], []];
  const authorsOf = groupBy(authors, 'book_id');
  const tagsOf = groupBy(tags, 'book_id');
  const genresOf = groupBy(genres, 'series_id');
  const labelsOf = groupBy(labels, 'series_id');

  const docs = rows.map((r) => {
    const oneshot = Boolean(r.oneshot);
    const doc: Doc = {
      ...bookTitleColumns(r),
      tag: documentField((tagsOf.get(r.id) ?? []).map((t) => t.tag)),
      ...authorColumns(authorsOf.get(r.id)),
      release_date: documentField([year(r.release_date)]),
      status: documentField([r.media_status ?? 'UNKNOWN', oneshot ? r.series_status : null]),
      deleted: documentField([bool(r.deleted_date)]),
      oneshot: documentField([bool(oneshot)]),
      summary: documentField([r.summary]),
    };
    if (oneshot) {
      Object.assign(doc, {
        publisher: documentField([r.publisher]),
        reading_direction: documentField([r.reading_direction]),
        age_rating: documentField([r.age_rating === null ? null : String(r.age_rating)]),
        language: documentField([r.language]),
        genre: documentField((genresOf.get(r.series_id) ?? []).map((g) => g.genre)),
        sharing_label: documentField((labelsOf.get(r.series_id) ?? []).map((l) => l.label)),
        complete: documentField(['true']),
      });
    }
    return { id: r.id, folds: { title_fold: sortKey(r.title), name_fold: sortKey(r.name) }, doc };
  });
  await replaceDocuments(tx, 'book', ids, docs);
}
