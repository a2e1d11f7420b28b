import { sql } from 'kysely';
import type { ContentViewer } from '../../domain/restrictions.js';
import { atomically, type Db } from '../database.js';
import type { ReadListRepository } from '../../domain/ports.js';
import { seriesVisibleTo } from '../queries/conditions.js';
import { takeMembershipRemovals } from './collections.js';
import type {
  CblCandidate,
  StoredReadList,
  ReadListCounts,
  ReadListMember,
  ExportedBook,
} from '../../domain/collection.js';

/*
 * Read lists of books (tables `readlist`, `readlist_book`; engine.md §6.10, §12.3, api.md §3.5). Posters are in
 * PosterRepository (collections.ts). A book is visible when its series is (api.md §2.10).
 */

const CHUNK = 500;
const chunks = <T>(xs: readonly T[]) => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
};

type ReadListRow = {
  id: string;
  name: string;
  summary: string;
  ordered: number | boolean;
  created_date: string;
  last_modified_date: string;
};

const toReadList = (r: ReadListRow): StoredReadList => ({
  id: r.id,
  name: r.name,
  summary: r.summary,
  ordered: Boolean(r.ordered),
  createdDate: r.created_date,
  lastModifiedDate: r.last_modified_date,
});

export class KyselyReadListRepository implements ReadListRepository {
  constructor(readonly db: Db) {}

  async findById(id: string): Promise<StoredReadList | undefined> {
    const row = await this.db.selectFrom('readlist').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toReadList(row);
  }

  /** By name, ASCII case-insensitively (as the unique index compares). */
  async findByName(name: string): Promise<StoredReadList | undefined> {
    const row = await this.db
      .selectFrom('readlist')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['name']), '=', eb.fn('lower', [eb.val(name)])))
      .executeTakeFirst();
    return row && toReadList(row);
  }

  /**
   * Every read list (or those in `ids`) with its member counts for this viewer; `libraryIds` counts the
   * visible books in those libraries.
   */
  async findAllWithCounts(
    viewer: ContentViewer,
    opts: { ids?: readonly string[]; libraryIds?: readonly string[] } = {},
  ): Promise<ReadListCounts[]> {
    let lists = this.db.selectFrom('readlist').selectAll();
    if (opts.ids) lists = lists.where('id', 'in', opts.ids.length ? [...opts.ids] : ['']);
    const rows = await lists.execute();
    const libraryIds = opts.libraryIds;
    let counts = this.db
      .selectFrom('readlist_book as rb')
      .innerJoin('book as b', 'b.id', 'rb.book_id')
      .innerJoin('series as s', 's.id', 'b.series_id')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select((eb) => {
        const visible = seriesVisibleTo(viewer);
        const inLibraries =
          libraryIds && libraryIds.length > 0
            ? eb.and([visible, eb('b.library_id', 'in', [...libraryIds])])
            : eb.lit(false);
        return [
          'rb.readlist_id',
          eb.fn.countAll<number>().as('total'),
          eb.fn.sum<number>(eb.case().when(visible).then(1).else(0).end()).as('visible'),
          eb.fn.sum<number>(eb.case().when(inLibraries).then(1).else(0).end()).as('in_libraries'),
        ];
      })
      .groupBy('rb.readlist_id');
    if (opts.ids) counts = counts.where('rb.readlist_id', 'in', opts.ids.length ? [...opts.ids] : ['']);
    const byId = new Map((await counts.execute()).map((c) => [c.readlist_id, c]));
    return rows.map((r) => {
      const c = byId.get(r.id);
      return {
        ...toReadList(r),
        total: Number(c?.total ?? 0),
        visible: Number(c?.visible ?? 0),
        inLibraries: Number(c?.in_libraries ?? 0),
      };
    });
  }

  /** Ids of the read lists holding this book. */
  async idsContainingBook(bookId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('readlist_book')
      .select('readlist_id')
      .where('book_id', '=', bookId)
      .execute();
    return rows.map((r) => r.readlist_id);
  }

  /** Members of these read lists in position order, with whether the viewer may see each. */
  async members(readListIds: readonly string[], viewer: ContentViewer): Promise<ReadListMember[]> {
    const out: ReadListMember[] = [];
    for (const part of chunks(readListIds)) {
      const rows = await this.db
        .selectFrom('readlist_book as rb')
        .innerJoin('book as b', 'b.id', 'rb.book_id')
        .innerJoin('book_metadata as bm', 'bm.book_id', 'b.id')
        .innerJoin('series as s', 's.id', 'b.series_id')
        .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
        .select((eb) => [
          'rb.readlist_id',
          'rb.book_id',
          'rb.number',
          'bm.release_date',
          eb.case().when(seriesVisibleTo(viewer)).then(1).else(0).end().as('visible'),
        ])
        .where('rb.readlist_id', 'in', part)
        .orderBy('rb.readlist_id')
        .orderBy('rb.number')
        .execute();
      for (const r of rows) {
        out.push({
          readListId: r.readlist_id,
          bookId: r.book_id,
          number: r.number,
          releaseDate: r.release_date,
          visible: Boolean(r.visible),
        });
      }
    }
    return out;
  }

  /** Every member's book id, in position order, whoever may see them (event payloads). */
  async memberIds(readListId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('readlist_book')
      .select('book_id')
      .where('readlist_id', '=', readListId)
      .orderBy('number')
      .execute();
    return rows.map((r) => r.book_id);
  }

  /** Which of these books exist. */
  async existingBooks(ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks(ids)) {
      const rows = await this.db.selectFrom('book').select('id').where('id', 'in', part).execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  /** These books (unknown ids skipped), in the order given. */
  async exportedBooks(ids: readonly string[]): Promise<ExportedBook[]> {
    const byId = new Map<string, ExportedBook>();
    for (const part of chunks(ids)) {
      const rows = await this.db
        .selectFrom('book as b')
        .innerJoin('book_metadata as bm', 'bm.book_id', 'b.id')
        .innerJoin('series_metadata as sm', 'sm.series_id', 'b.series_id')
        .select(['b.id', 'b.name', 'b.library_id', 'b.url', 'b.series_id', 'bm.number', 'bm.release_date', 'sm.title'])
        .where('b.id', 'in', part)
        .execute();
      const seriesIds = [...new Set(rows.map((r) => r.series_id))];
      const [bookLinks, seriesLinks] = await Promise.all([
        this.db
          .selectFrom('book_metadata_link')
          .select(['book_id', 'label', 'url'])
          .where('book_id', 'in', part)
          .orderBy('position')
          .execute(),
        seriesIds.length
          ? this.db
              .selectFrom('series_metadata_link')
              .select(['series_id', 'label', 'url'])
              .where('series_id', 'in', seriesIds)
              .orderBy('position')
              .execute()
          : Promise.resolve([]),
      ]);
      for (const r of rows) {
        byId.set(r.id, {
          id: r.id,
          name: r.name,
          libraryId: r.library_id,
          url: r.url,
          seriesTitle: r.title,
          number: r.number,
          releaseDate: r.release_date,
          links: [
            ...bookLinks.filter((l) => l.book_id === r.id),
            ...seriesLinks.filter((l) => l.series_id === r.series_id),
          ].map(({ label, url }) => ({ label, url })),
        });
      }
    }
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async insert(r: Omit<StoredReadList, 'lastModifiedDate'>, members: readonly { bookId: string; number: number }[]) {
    await atomically(this.db, async (db) => {
      await db
        .insertInto('readlist')
        .values({
          id: r.id,
          name: r.name,
          summary: r.summary,
          ordered: r.ordered ? 1 : 0,
          created_date: r.createdDate,
          last_modified_date: r.createdDate,
        })
        .execute();
      await insertMembers(db, r.id, members);
    });
  }

  /** Changes the given fields; `bookIds` replaces the members (positions 0..n-1 in that order). */
  async update(
    id: string,
    patch: { name?: string; summary?: string; ordered?: boolean; bookIds?: readonly string[] },
    at: Date,
  ): Promise<void> {
    const now = at.toISOString();
    await atomically(this.db, async (db) => {
      await db
        .updateTable('readlist')
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.summary !== undefined ? { summary: patch.summary } : {}),
          ...(patch.ordered !== undefined ? { ordered: patch.ordered ? 1 : 0 } : {}),
          last_modified_date: now,
        })
        .where('id', '=', id)
        .execute();
      if (patch.bookIds) {
        await db.deleteFrom('readlist_book').where('readlist_id', '=', id).execute();
        await insertMembers(
          db,
          id,
          patch.bookIds.map((bookId, number) => ({ bookId, number })),
        );
      }
    });
  }

  /**
   * Adds the book unless it is already in (engine.md §6.10): at `number` when given and free, else after
   * the last position. Returns whether it was added.
   */
  async add(id: string, bookId: string, number: number | null, at: Date): Promise<boolean> {
    const now = at.toISOString();
    return atomically(this.db, async (db) => {
      const members = await db
        .selectFrom('readlist_book')
        .select(['book_id', 'number'])
        .where('readlist_id', '=', id)
        .execute();
      if (members.some((m) => m.book_id === bookId)) return false;
      const taken = new Set(members.map((m) => m.number));
      const last = members.reduce((max, m) => Math.max(max, m.number), -1);
      const at = number !== null && number >= 0 && !taken.has(number) ? number : last + 1;
      await insertMembers(db, id, [{ bookId, number: at }]);
      await db.updateTable('readlist').set({ last_modified_date: now }).where('id', '=', id).execute();
      return true;
    });
  }

  async delete(ids: readonly string[]): Promise<void> {
    for (const part of chunks(ids)) await this.db.deleteFrom('readlist').where('id', 'in', part).execute();
  }

  /** Read lists without any book. */
  async emptyIds(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('readlist as r')
      .select('r.id')
      .where((eb) =>
        eb.not(
          eb.exists(eb.selectFrom('readlist_book as rb').select('rb.book_id').whereRef('rb.readlist_id', '=', 'r.id')),
        ),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  /** Takes (reads and forgets) the read lists that lost books to a deletion (migration 0007). */
  takeMembershipRemovals(): Promise<string[]> {
    return takeMembershipRemovals(this.db, 'readlist');
  }

  /** Books whose series' metadata title is one of `titles`, compared with SQLite's NOCASE (ASCII only). */
  async booksOfSeriesTitled(titles: readonly string[]): Promise<CblCandidate[]> {
    const found: CblCandidate[] = [];
    for (const part of chunks([...new Set(titles)])) {
      const rows = await this.db
        .selectFrom('series_metadata as sm')
        .innerJoin('book as b', 'b.series_id', 'sm.series_id')
        .innerJoin('book_metadata as bm', 'bm.book_id', 'b.id')
        .leftJoin('book_metadata_aggregation as bma', 'bma.series_id', 'sm.series_id')
        .select(['sm.series_id', 'sm.title as series_title', 'bma.release_date', 'b.id', 'bm.number', 'bm.title'])
        .where(sql<boolean>`sm.title collate nocase in (${sql.join(part)})`)
        .orderBy('sm.title_sort')
        .orderBy('sm.series_id')
        .orderBy('bm.number_sort')
        .orderBy('b.name')
        .execute();
      for (const r of rows) {
        found.push({
          seriesId: r.series_id,
          seriesTitle: r.series_title,
          seriesReleaseDate: r.release_date,
          bookId: r.id,
          bookNumber: r.number,
          bookTitle: r.title,
        });
      }
    }
    return found;
  }
}

async function insertMembers(db: Db, id: string, members: readonly { bookId: string; number: number }[]) {
  const rows = members.map((m) => ({ readlist_id: id, book_id: m.bookId, number: m.number }));
  for (const part of chunks(rows)) if (part.length > 0) await db.insertInto('readlist_book').values(part).execute();
}
