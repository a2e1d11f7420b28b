import { sql } from 'kysely';
import type { Db } from '../database.js';
import { atomically } from '../database.js';
import { groupConcat, jsonArrayRows } from '../dialect.js';
import { seriesVisibleTo } from '../queries/conditions.js';
import type { ContentViewer } from '../../domain/restrictions.js';
import type {
  ReadListChange,
  SyncedReadList,
  SyncPoint,
  SyncPointChange,
  SyncPointRepository,
} from '../../domain/sync-point.js';

/** Columns whose difference between two snapshots makes a book "changed" (its entitlement and metadata). */
const CHANGED = sql<boolean>`(t.file_last_modified != f.file_last_modified OR t.file_size != f.file_size
  OR t.file_hash != f.file_hash OR t.metadata_last_modified_date != f.metadata_last_modified_date
  OR t.thumbnail_id IS DISTINCT FROM f.thumbnail_id)`;

/** The book of the row aliased `alias` is not in that sync point's table (its books, or the removals sent). */
const absentFrom = (table: 'sync_point_book' | 'sync_point_removed', pointId: string, alias: 'f' | 't') =>
  sql<boolean>`NOT EXISTS (SELECT 1 FROM ${sql.table(table)} x
    WHERE x.sync_point_id = ${pointId} AND x.book_id = ${sql.ref(`${alias}.book_id`)})`;

const isReadListChange = (change: SyncPointChange): change is ReadListChange => change.startsWith('readList');

export class KyselySyncPointRepository implements SyncPointRepository {
  constructor(private readonly db: Db) {}

  async create(
    viewer: ContentViewer & { id: string },
    apiKeyId: string,
    opts: {
      id: string;
      now: Date;
      epubMediaType: string;
      onDeck: { id: string; name: string; bookIds: readonly string[] };
    },
  ): Promise<SyncPoint> {
    const point: SyncPoint = { id: opts.id, userId: viewer.id, apiKeyId, createdDate: opts.now.toISOString() };
    await atomically(this.db, async (tx) => {
      await tx
        .insertInto('sync_point')
        .values({ id: point.id, user_id: point.userId, api_key_id: apiKeyId, created_date: point.createdDate })
        .execute();
      const books = tx
        .selectFrom('book as b')
        .innerJoin('series as s', 's.id', 'b.series_id')
        .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
        .innerJoin('media as m', 'm.book_id', 'b.id')
        .innerJoin('book_metadata as bm', 'bm.book_id', 'b.id')
        .leftJoin('thumbnail_book as t', (j) => j.onRef('t.book_id', '=', 'b.id').on('t.selected', '=', 1))
        .leftJoin('read_progress as rp', (j) => j.onRef('rp.book_id', '=', 'b.id').on('rp.user_id', '=', viewer.id))
        .select([
          sql.lit(point.id).as('sync_point_id'),
          'b.id as book_id',
          'b.created_date as book_created_date',
          'b.file_last_modified',
          'b.file_size',
          'b.file_hash',
          // The Kobo's metadata shows the series' title and number too.
          sql<string>`CASE WHEN bm.last_modified_date > sm.last_modified_date THEN bm.last_modified_date ELSE sm.last_modified_date END`.as(
            'metadata_last_modified_date',
          ),
          't.id as thumbnail_id',
          'rp.last_modified_date as read_progress_last_modified_date',
        ])
        .where('b.deleted_date', 'is', null)
        .where('s.deleted_date', 'is', null)
        .where('m.status', '=', 'READY')
        .where('m.media_type', '=', opts.epubMediaType)
        .where(seriesVisibleTo(viewer));
      await tx
        .insertInto('sync_point_book')
        .columns([
          'sync_point_id',
          'book_id',
          'book_created_date',
          'file_last_modified',
          'file_size',
          'file_hash',
          'metadata_last_modified_date',
          'thumbnail_id',
          'read_progress_last_modified_date',
        ])
        .expression(books)
        .execute();
      // Each read list with books in the snapshot, and those books in list order (SQLite's ordered aggregate).
      const readLists = tx
        .selectFrom('readlist as r')
        .innerJoin('readlist_book as rb', 'rb.readlist_id', 'r.id')
        .innerJoin('sync_point_book as spb', (j) =>
          j.onRef('spb.book_id', '=', 'rb.book_id').on('spb.sync_point_id', '=', point.id),
        )
        .select([
          sql.lit(point.id).as('sync_point_id'),
          'r.id as readlist_id',
          'r.name',
          'r.created_date',
          'r.last_modified_date',
          groupConcat(tx, sql.ref('rb.book_id'), ',', sql.ref('rb.number')).as('book_ids'),
        ])
        .groupBy('r.id');
      await tx
        .insertInto('sync_point_readlist')
        .columns(['sync_point_id', 'readlist_id', 'name', 'created_date', 'last_modified_date', 'book_ids'])
        .expression(readLists)
        .execute();
      // On Deck is kept as one more list: the device's collection holds its books that the device has.
      // One JSON parameter rather than one per book: a deck holds a book per series, any number of them.
      const synced = new Set(
        (
          await tx
            .selectFrom('sync_point_book')
            .select('book_id')
            .where('sync_point_id', '=', point.id)
            .where(
              sql<boolean>`book_id IN (SELECT value FROM ${jsonArrayRows(tx, JSON.stringify(opts.onDeck.bookIds))} d)`,
            )
            .execute()
        ).map((r) => r.book_id),
      );
      const onDeck = opts.onDeck.bookIds.filter((id) => synced.has(id));
      if (onDeck.length)
        await tx
          .insertInto('sync_point_readlist')
          .values({
            sync_point_id: point.id,
            readlist_id: opts.onDeck.id,
            name: opts.onDeck.name,
            created_date: point.createdDate,
            last_modified_date: point.createdDate,
            book_ids: onDeck.join(','),
          })
          .execute();
    });
    return point;
  }

  async find(id: string): Promise<SyncPoint | undefined> {
    const row = await this.db.selectFrom('sync_point').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { id: row.id, userId: row.user_id, apiKeyId: row.api_key_id, createdDate: row.created_date };
  }

  async take(change: SyncPointChange, toId: string, fromId: string | null, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    if (isReadListChange(change)) return this.takeReadLists(change, toId, fromId, limit);
    return atomically(this.db, async (tx) => {
      const ids = await this.unsent(tx, change, toId, fromId, limit);
      if (ids.length === 0) return ids;
      if (change === 'removed') {
        await tx
          .insertInto('sync_point_removed')
          .values(ids.map((book_id) => ({ sync_point_id: toId, book_id })))
          .execute();
      } else {
        await tx
          .updateTable('sync_point_book')
          .set({ synced: 1 })
          .where('sync_point_id', '=', toId)
          .where('book_id', 'in', ids)
          .execute();
      }
      return ids;
    });
  }

  async pending(change: SyncPointChange, toId: string, fromId: string | null): Promise<boolean> {
    const found = isReadListChange(change)
      ? await this.unsentReadLists(this.db, change, toId, fromId, 1)
      : await this.unsent(this.db, change, toId, fromId, 1);
    return found.length > 0;
  }

  async readLists(pointId: string, ids: readonly string[]): Promise<SyncedReadList[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('sync_point_readlist')
      .selectAll()
      .where('sync_point_id', '=', pointId)
      .where('readlist_id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.readlist_id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      return r
        ? [
            {
              id,
              name: r.name,
              createdDate: r.created_date,
              lastModifiedDate: r.last_modified_date,
              bookIds: r.book_ids ? r.book_ids.split(',') : [],
            },
          ]
        : [];
    });
  }

  private takeReadLists(change: ReadListChange, toId: string, fromId: string | null, limit: number) {
    return atomically(this.db, async (tx) => {
      const ids = await this.unsentReadLists(tx, change, toId, fromId, limit);
      if (ids.length === 0) return ids;
      if (change === 'readListRemoved') {
        await tx
          .insertInto('sync_point_readlist_removed')
          .values(ids.map((readlist_id) => ({ sync_point_id: toId, readlist_id })))
          .execute();
      } else {
        await tx
          .updateTable('sync_point_readlist')
          .set({ synced: 1 })
          .where('sync_point_id', '=', toId)
          .where('readlist_id', 'in', ids)
          .execute();
      }
      return ids;
    });
  }

  /** The read lists of one kind of change not sent yet in the sync going to `toId`, oldest first. */
  private async unsentReadLists(
    db: Db,
    change: ReadListChange,
    toId: string,
    fromId: string | null,
    limit: number,
  ): Promise<string[]> {
    const ids = (rows: { readlist_id: string }[]) => rows.map((r) => r.readlist_id);
    const absent = (table: 'sync_point_readlist' | 'sync_point_readlist_removed', pointId: string, alias: 'f' | 't') =>
      sql<boolean>`NOT EXISTS (SELECT 1 FROM ${sql.table(table)} x
        WHERE x.sync_point_id = ${pointId} AND x.readlist_id = ${sql.ref(`${alias}.readlist_id`)})`;
    if (change === 'readListRemoved') {
      if (fromId === null) return [];
      const rows = await db
        .selectFrom('sync_point_readlist as f')
        .select('f.readlist_id')
        .where('f.sync_point_id', '=', fromId)
        .where(absent('sync_point_readlist', toId, 'f'))
        .where(absent('sync_point_readlist_removed', toId, 'f'))
        .orderBy('f.created_date')
        .orderBy('f.readlist_id')
        .limit(limit)
        .execute();
      return ids(rows);
    }
    const to = db
      .selectFrom('sync_point_readlist as t')
      .select('t.readlist_id')
      .where('t.sync_point_id', '=', toId)
      .where('t.synced', '=', 0)
      .orderBy('t.created_date')
      .orderBy('t.readlist_id')
      .limit(limit);
    if (change === 'readListAll') return ids(await to.execute());
    if (fromId === null) return [];
    if (change === 'readListAdded') return ids(await to.where(absent('sync_point_readlist', fromId, 't')).execute());
    const changed = to
      .innerJoin('sync_point_readlist as f', (j) =>
        j.onRef('f.readlist_id', '=', 't.readlist_id').on('f.sync_point_id', '=', fromId),
      )
      .where(sql<boolean>`(t.name != f.name OR t.book_ids != f.book_ids)`);
    return ids(await changed.execute());
  }

  /** The books of one kind of change not sent yet in the sync going to `toId`, oldest first, at most `limit`. */
  private async unsent(
    db: Db,
    change: Exclude<SyncPointChange, ReadListChange>,
    toId: string,
    fromId: string | null,
    limit: number,
  ): Promise<string[]> {
    const ids = (rows: { book_id: string }[]) => rows.map((r) => r.book_id);
    if (change === 'removed') {
      if (fromId === null) return [];
      return db
        .selectFrom('sync_point_book as f')
        .select('f.book_id')
        .where('f.sync_point_id', '=', fromId)
        .where(absentFrom('sync_point_book', toId, 'f'))
        .where(absentFrom('sync_point_removed', toId, 'f'))
        .orderBy('f.book_created_date')
        .orderBy('f.book_id')
        .limit(limit)
        .execute()
        .then(ids);
    }
    const to = db
      .selectFrom('sync_point_book as t')
      .select('t.book_id')
      .where('t.sync_point_id', '=', toId)
      .where('t.synced', '=', 0)
      .orderBy('t.book_created_date')
      .orderBy('t.book_id')
      .limit(limit);
    if (change === 'all') return ids(await to.execute());
    if (fromId === null) return [];
    if (change === 'added') return ids(await to.where(absentFrom('sync_point_book', fromId, 't')).execute());
    const both = to.innerJoin('sync_point_book as f', (j) =>
      j.onRef('f.book_id', '=', 't.book_id').on('f.sync_point_id', '=', fromId),
    );
    if (change === 'changed') return ids(await both.where(CHANGED).execute());
    const progressOnly = both
      .where(sql<boolean>`NOT ${CHANGED}`)
      .where(sql<boolean>`t.read_progress_last_modified_date IS DISTINCT FROM f.read_progress_last_modified_date`);
    return ids(await progressOnly.execute());
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sync_point').where('id', '=', id).execute();
  }

  async deleteOthers(userId: string, apiKeyId: string, keep: readonly string[]): Promise<void> {
    let q = this.db.deleteFrom('sync_point').where('user_id', '=', userId).where('api_key_id', '=', apiKeyId);
    if (keep.length) q = q.where('id', 'not in', keep);
    await q.execute();
  }

  async deleteForUser(userId: string, apiKeyIds: readonly string[] | null): Promise<void> {
    let q = this.db.deleteFrom('sync_point').where('user_id', '=', userId);
    if (apiKeyIds !== null) {
      if (apiKeyIds.length === 0) return;
      q = q.where('api_key_id', 'in', apiKeyIds);
    }
    await q.execute();
  }
}
