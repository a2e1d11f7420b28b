import { sql } from 'kysely';
import type { Db } from '../database.js';
import { jsonIsTrue } from '../dialect.js';
import type { BookAccess, BookFileView, BookMediaView } from '../../domain/book.js';
import type { BookMetadata, Dated } from '../../domain/metadata.js';
import type { MediaStatusValue } from '../../domain/media.js';

/**
 * Read models of books, shaped for BookDto (api.md §4.1): the book with its metadata side tables, media,
 * the caller's read progress, and what access checks need (library, series age rating and sharing labels).
 */

export interface BookView {
  id: string;
  seriesId: string;
  seriesTitle: string;
  libraryId: string;
  name: string;
  /** file: URL. */
  url: string;
  number: number;
  createdDate: string;
  lastModifiedDate: string;
  fileLastModified: string;
  fileSize: number;
  fileHash: string;
  oneshot: boolean;
  deleted: boolean;
  media: BookMediaView;
  metadata: BookMetadata & Dated;
  readProgress: {
    page: number;
    completed: boolean;
    readDate: string;
    createdDate: string;
    lastModifiedDate: string;
    deviceId: string;
    deviceName: string;
  } | null;
  access: BookAccess;
  /** Series metadata a WebPub manifest reads. */
  seriesLanguage: string;
  seriesReadingDirection: string | null;
}

const UNKNOWN_MEDIA: BookMediaView = {
  status: 'UNKNOWN',
  mediaType: null,
  comment: null,
  pageCount: 0,
  epubDivinaCompatible: false,
  epubIsKepub: false,
  lastModifiedDate: new Date(0).toISOString(),
};

export class BookQueries {
  constructor(private readonly db: Db) {}

  async findById(bookId: string, userId: string): Promise<BookView | undefined> {
    return (await this.findMany([bookId], userId))[0];
  }

  /** The distinct media types of each book's pages (OPDS page streaming tells whether they need converting). */
  async pageMediaTypes(bookIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (bookIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('media_page')
      .select(['book_id', 'media_type'])
      .distinct()
      .where('book_id', 'in', bookIds)
      .execute();
    for (const r of rows) out.set(r.book_id, [...(out.get(r.book_id) ?? []), r.media_type]);
    return out;
  }

  /** Books in the order of `ids` (unknown ids skipped). */
  async findMany(ids: readonly string[], userId: string): Promise<BookView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('book as b')
      .innerJoin('book_metadata as bm', 'bm.book_id', 'b.id')
      .innerJoin('series_metadata as sm', 'sm.series_id', 'b.series_id')
      .leftJoin('media as m', 'm.book_id', 'b.id')
      .leftJoin('read_progress as r', (j) => j.onRef('r.book_id', '=', 'b.id').on('r.user_id', '=', userId))
      .select([
        'b.id',
        'b.series_id',
        'b.library_id',
        'b.name',
        'b.url',
        'b.number',
        'b.created_date',
        'b.last_modified_date',
        'b.file_last_modified',
        'b.file_size',
        'b.file_hash',
        'b.oneshot',
        'b.deleted_date',
        'sm.title as series_title',
        'sm.age_rating',
        'sm.language as series_language',
        'sm.reading_direction as series_reading_direction',
        'm.status as m_status',
        'm.media_type as m_media_type',
        'm.comment as m_comment',
        'm.page_count as m_page_count',
        'm.epub_divina_compatible as m_divina',
        'm.epub_is_kepub as m_kepub',
        'm.last_modified_date as m_last_modified',
        'bm.title',
        'bm.title_lock',
        'bm.summary',
        'bm.summary_lock',
        'bm.number as m_number',
        'bm.number_lock',
        'bm.number_sort',
        'bm.number_sort_lock',
        'bm.release_date',
        'bm.release_date_lock',
        'bm.authors_lock',
        'bm.tags_lock',
        'bm.isbn',
        'bm.isbn_lock',
        'bm.links_lock',
        'bm.created_date as bm_created',
        'bm.last_modified_date as bm_last_modified',
        'r.page as r_page',
        'r.completed as r_completed',
        'r.read_date as r_read_date',
        'r.created_date as r_created',
        'r.last_modified_date as r_last_modified',
        'r.device_id as r_device_id',
        'r.device_name as r_device_name',
      ])
      .where('b.id', 'in', ids)
      .execute();
    if (rows.length === 0) return [];
    const found = rows.map((r) => r.id);
    const seriesIds = [...new Set(rows.map((r) => r.series_id))];
    const [authors, tags, links, labels] = await Promise.all([
      this.db
        .selectFrom('book_metadata_author')
        .select(['book_id', 'name', 'role'])
        .where('book_id', 'in', found)
        .orderBy('position')
        .execute(),
      this.db
        .selectFrom('book_metadata_tag')
        .select(['book_id', 'tag'])
        .where('book_id', 'in', found)
        .orderBy('tag')
        .execute(),
      this.db
        .selectFrom('book_metadata_link')
        .select(['book_id', 'label', 'url'])
        .where('book_id', 'in', found)
        .orderBy('position')
        .execute(),
      sharingLabels(this.db, seriesIds),
    ]);
    const byBook = <T extends { book_id: string }>(list: T[]) => {
      const m = new Map<string, T[]>();
      for (const x of list) m.set(x.book_id, [...(m.get(x.book_id) ?? []), x]);
      return m;
    };
    const a = byBook(authors);
    const tg = byBook(tags);
    const l = byBook(links);
    const views = new Map(
      rows.map((r): [string, BookView] => [
        r.id,
        {
          id: r.id,
          seriesId: r.series_id,
          seriesTitle: r.series_title,
          libraryId: r.library_id,
          name: r.name,
          url: r.url,
          number: r.number,
          createdDate: r.created_date,
          lastModifiedDate: r.last_modified_date,
          fileLastModified: r.file_last_modified,
          fileSize: r.file_size,
          fileHash: r.file_hash,
          oneshot: Boolean(r.oneshot),
          deleted: r.deleted_date !== null,
          media: mediaOf(r),
          metadata: {
            title: r.title,
            titleLock: Boolean(r.title_lock),
            summary: r.summary,
            summaryLock: Boolean(r.summary_lock),
            number: r.m_number,
            numberLock: Boolean(r.number_lock),
            numberSort: r.number_sort,
            numberSortLock: Boolean(r.number_sort_lock),
            releaseDate: r.release_date,
            releaseDateLock: Boolean(r.release_date_lock),
            authors: (a.get(r.id) ?? []).map(({ name, role }) => ({ name, role })),
            authorsLock: Boolean(r.authors_lock),
            tags: (tg.get(r.id) ?? []).map((t) => t.tag),
            tagsLock: Boolean(r.tags_lock),
            isbn: r.isbn,
            isbnLock: Boolean(r.isbn_lock),
            links: (l.get(r.id) ?? []).map(({ label, url }) => ({ label, url })),
            linksLock: Boolean(r.links_lock),
            createdDate: r.bm_created,
            lastModifiedDate: r.bm_last_modified,
          },
          readProgress:
            r.r_page === null
              ? null
              : {
                  page: r.r_page,
                  completed: Boolean(r.r_completed),
                  readDate: r.r_read_date!,
                  createdDate: r.r_created!,
                  lastModifiedDate: r.r_last_modified!,
                  deviceId: r.r_device_id ?? '',
                  deviceName: r.r_device_name ?? '',
                },
          access: { libraryId: r.library_id, ageRating: r.age_rating, sharingLabels: labels.get(r.series_id) ?? [] },
          seriesLanguage: r.series_language,
          seriesReadingDirection: r.series_reading_direction,
        },
      ]),
    );
    return ids.flatMap((id) => views.get(id) ?? []);
  }

  /** Which of these books are fixed-layout EPUBs (their analysis says so). */
  async fixedLayout(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('media')
      .select('book_id')
      .where('book_id', 'in', ids)
      .where(jsonIsTrue(this.db, sql.ref('extension'), 'isFixedLayout'))
      .execute();
    return new Set(rows.map((r) => r.book_id));
  }

  async findFile(bookId: string): Promise<BookFileView | undefined> {
    const r = await this.db
      .selectFrom('book as b')
      .innerJoin('series_metadata as sm', 'sm.series_id', 'b.series_id')
      .leftJoin('media as m', 'm.book_id', 'b.id')
      .select([
        'b.id',
        'b.series_id',
        'b.library_id',
        'b.name',
        'b.url',
        'b.file_size',
        'b.file_last_modified',
        'sm.age_rating',
        'm.status as m_status',
        'm.media_type as m_media_type',
        'm.comment as m_comment',
        'm.page_count as m_page_count',
        'm.epub_divina_compatible as m_divina',
        'm.epub_is_kepub as m_kepub',
        'm.last_modified_date as m_last_modified',
      ])
      .where('b.id', '=', bookId)
      .executeTakeFirst();
    if (!r) return undefined;
    const labels = await sharingLabels(this.db, [r.series_id]);
    return {
      id: r.id,
      seriesId: r.series_id,
      name: r.name,
      url: r.url,
      fileSize: r.file_size,
      fileLastModified: r.file_last_modified,
      media: mediaOf(r),
      access: { libraryId: r.library_id, ageRating: r.age_rating, sharingLabels: labels.get(r.series_id) ?? [] },
    };
  }

  /** The media last-modified date (Last-Modified of page endpoints), checked before access control. */
  async mediaLastModified(bookId: string): Promise<string | undefined> {
    const r = await this.db
      .selectFrom('media')
      .select('last_modified_date')
      .where('book_id', '=', bookId)
      .executeTakeFirst();
    return r?.last_modified_date;
  }

  /**
   * Books whose non-blank file hash is shared with another book of the same size (engine.md §5.1),
   * deleted ones included, all libraries; sorted by hash (or `fileSize`/`name`), then id.
   */
  async duplicates(page: {
    offset?: number;
    limit?: number;
    sort: { property: 'fileHash' | 'fileSize' | 'name' | 'url'; descending: boolean }[];
  }): Promise<{ ids: string[]; total: number }> {
    const dup = this.db
      .selectFrom('book')
      .select(['file_hash', 'file_size'])
      .where('file_hash', '!=', '')
      // A book in the trash has no file any more (deleted by request, or gone from disk): it duplicates nothing.
      .where('deleted_date', 'is', null)
      .groupBy(['file_hash', 'file_size'])
      .having((eb) => eb.fn.countAll(), '>', 1);
    const base = this.db
      .selectFrom('book as b')
      .innerJoin(dup.as('d'), (j) =>
        j.onRef('d.file_hash', '=', 'b.file_hash').onRef('d.file_size', '=', 'b.file_size'),
      )
      .where('b.deleted_date', 'is', null);
    const total = Number(
      (await base.select((eb) => eb.fn.countAll<number | bigint>().as('n')).executeTakeFirstOrThrow()).n,
    );
    const column = { fileHash: 'b.file_hash', fileSize: 'b.file_size', name: 'b.name', url: 'b.url' } as const;
    let q = base.select('b.id');
    for (const s of page.sort) q = q.orderBy(column[s.property], s.descending ? 'desc' : 'asc');
    q = q.orderBy('b.id');
    if (page.limit !== undefined) q = q.limit(page.limit).offset(page.offset ?? 0);
    return { ids: (await q.execute()).map((r) => r.id), total };
  }
}

/** Sharing labels per series. */
export async function sharingLabels(db: Db, seriesIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (seriesIds.length === 0) return out;
  const rows = await db
    .selectFrom('series_metadata_sharing')
    .select(['series_id', 'label'])
    .where('series_id', 'in', seriesIds)
    .orderBy('label')
    .execute();
  for (const r of rows) out.set(r.series_id, [...(out.get(r.series_id) ?? []), r.label]);
  return out;
}

function mediaOf(r: {
  m_status: string | null;
  m_media_type: string | null;
  m_comment: string | null;
  m_page_count: number | null;
  m_divina: number | boolean | null;
  m_kepub: number | boolean | null;
  m_last_modified: string | null;
}): BookMediaView {
  if (r.m_status === null) return UNKNOWN_MEDIA;
  return {
    status: r.m_status as MediaStatusValue,
    mediaType: r.m_media_type,
    comment: r.m_comment,
    pageCount: r.m_page_count ?? 0,
    epubDivinaCompatible: Boolean(r.m_divina),
    epubIsKepub: Boolean(r.m_kepub),
    lastModifiedDate: r.m_last_modified ?? UNKNOWN_MEDIA.lastModifiedDate,
  };
}
