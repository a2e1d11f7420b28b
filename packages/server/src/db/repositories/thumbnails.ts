import { atomically, type Db } from '../database.js';
import type { ThumbnailRepository } from '../../domain/ports.js';
import type {
  ThumbnailOwner,
  StoredThumbnailType,
  StoredThumbnail,
  NewThumbnail,
  BookForThumbnail,
  SeriesForThumbnail,
  VisibilityFacts,
} from '../../domain/thumbnail.js';

/**
 * Book and series posters (tables `thumbnail_book`, `thumbnail_series`), plus the few reads about books,
 * series and read progress that choosing and generating a poster needs (engine.md §7).
 * The image bytes are never in the database: see library/thumbnails.ts for where they live.
 */

type Row = {
  id: string;
  type: string;
  url: string | null;
  selected: number | boolean;
  media_type: string;
  file_size: number;
  width: number;
  height: number;
  created_date: string;
  last_modified_date: string;
};

/*
 * Both tables have the same columns but the owner's. Queries are typed against `thumbnail_book` and run
 * against either table: the one cast of this file, kept in these two helpers.
 */
const tableOf = (owner: ThumbnailOwner) =>
  (owner === 'book' ? 'thumbnail_book' : 'thumbnail_series') as 'thumbnail_book';
const ownerColumn = (owner: ThumbnailOwner) => (owner === 'book' ? 'book_id' : 'series_id') as 'book_id';

export class KyselyThumbnailRepository implements ThumbnailRepository {
  constructor(readonly db: Db) {}

  async findById(owner: ThumbnailOwner, id: string): Promise<StoredThumbnail | undefined> {
    const row = await this.select(owner).where('id', '=', id).executeTakeFirst();
    return row && toThumbnail(owner, row);
  }

  /** In insertion order (ids sort by creation time). */
  async findAllByOwner(owner: ThumbnailOwner, ownerId: string): Promise<StoredThumbnail[]> {
    const rows = await this.select(owner)
      .where(ownerColumn(owner), '=', ownerId)
      .orderBy('created_date')
      .orderBy('id')
      .execute();
    return rows.map((r) => toThumbnail(owner, r));
  }

  async insert(t: NewThumbnail, at = new Date()): Promise<StoredThumbnail> {
    const now = at.toISOString();
    await this.db
      .insertInto(tableOf(t.owner))
      .values({
        id: t.id,
        [ownerColumn(t.owner)]: t.ownerId,
        type: t.type,
        url: t.url,
        selected: t.selected ? 1 : 0,
        media_type: t.mediaType,
        file_size: t.fileSize,
        width: t.width,
        height: t.height,
        created_date: now,
        last_modified_date: now,
      })
      .execute();
    return { ...t, createdDate: now, lastModifiedDate: now };
  }

  /** Makes `id` the only selected poster of its owner, in one transaction. */
  async markSelected(owner: ThumbnailOwner, ownerId: string, id: string): Promise<void> {
    const now = new Date().toISOString();
    await atomically(this.db, async (tx) => {
      const table = tableOf(owner);
      await tx
        .updateTable(table)
        .set({ selected: 0, last_modified_date: now })
        .where(ownerColumn(owner), '=', ownerId)
        .where('selected', '=', 1)
        .where('id', '!=', id)
        .execute();
      await tx.updateTable(table).set({ selected: 1, last_modified_date: now }).where('id', '=', id).execute();
    });
  }

  async delete(owner: ThumbnailOwner, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom(tableOf(owner)).where('id', 'in', ids).execute();
  }

  async findBook(bookId: string): Promise<BookForThumbnail | undefined> {
    const row = await this.db
      .selectFrom('book')
      .leftJoin('media', 'media.book_id', 'book.id')
      .select([
        'book.id',
        'book.series_id',
        'book.library_id',
        'book.url',
        'media.status',
        'media.media_type',
        'media.epub_divina_compatible',
      ])
      .where('book.id', '=', bookId)
      .executeTakeFirst();
    if (!row) return undefined;
    const page = await this.db
      .selectFrom('media_page')
      .select(['file_name', 'media_type', 'width', 'height'])
      .where('book_id', '=', bookId)
      .orderBy('number')
      .limit(1)
      .executeTakeFirst();
    return {
      id: row.id,
      seriesId: row.series_id,
      libraryId: row.library_id,
      url: row.url,
      mediaStatus: row.status ?? null,
      mediaType: row.media_type ?? null,
      epubDivinaCompatible: Boolean(row.epub_divina_compatible),
      firstPage: page
        ? { fileName: page.file_name, mediaType: page.media_type, width: page.width, height: page.height }
        : null,
    };
  }

  /** File names of a book's pages after the first, in order, at most `count`. */
  async laterPageNames(bookId: string, count: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('media_page')
      .select('file_name')
      .where('book_id', '=', bookId)
      .where('number', '>', 0)
      .orderBy('number')
      .limit(count)
      .execute();
    return rows.map((r) => r.file_name);
  }

  async findSeries(seriesId: string): Promise<SeriesForThumbnail | undefined> {
    const row = await this.db
      .selectFrom('series')
      .innerJoin('library', 'library.id', 'series.library_id')
      .select([
        'series.id',
        'series.library_id',
        'series.url',
        'series.oneshot',
        'library.series_cover',
        'library.import_local_artwork',
      ])
      .where('series.id', '=', seriesId)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        libraryId: row.library_id,
        url: row.url,
        oneshot: Boolean(row.oneshot),
        seriesCover: row.series_cover,
        importLocalArtwork: Boolean(row.import_local_artwork),
      }
    );
  }

  async importLocalArtwork(libraryId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('library')
      .select('import_local_artwork')
      .where('id', '=', libraryId)
      .executeTakeFirst();
    return Boolean(row?.import_local_artwork);
  }

  /** The library, age rating and sharing labels of a book's series; undefined if the book does not exist. */
  async visibilityOfBook(bookId: string): Promise<VisibilityFacts | undefined> {
    const row = await this.db.selectFrom('book').select('series_id').where('id', '=', bookId).executeTakeFirst();
    return row && this.visibilityOfSeries(row.series_id);
  }

  async visibilityOfSeries(seriesId: string): Promise<VisibilityFacts | undefined> {
    const row = await this.db
      .selectFrom('series')
      .leftJoin('series_metadata', 'series_metadata.series_id', 'series.id')
      .select(['series.id', 'series.library_id', 'series_metadata.age_rating'])
      .where('series.id', '=', seriesId)
      .executeTakeFirst();
    if (!row) return undefined;
    const labels = await this.db
      .selectFrom('series_metadata_sharing')
      .select('label')
      .where('series_id', '=', seriesId)
      .execute();
    return {
      seriesId: row.id,
      libraryId: row.library_id,
      ageRating: row.age_rating ?? null,
      sharingLabels: labels.map((l) => l.label),
    };
  }

  /**
   * The book whose poster stands for the series (engine.md §7.2), by `numberSort` (the book's position
   * when it has no metadata yet). `unreadFor` restricts to books the user has not completed (in progress
   * counts as unread). Soft-deleted books are not excluded, as in Komga.
   */
  async coverBookId(seriesId: string, opts: { last: boolean; unreadFor?: string }): Promise<string | undefined> {
    let q = this.db
      .selectFrom('book')
      .leftJoin('book_metadata', 'book_metadata.book_id', 'book.id')
      .select('book.id')
      .where('book.series_id', '=', seriesId);
    if (opts.unreadFor !== undefined) {
      const userId = opts.unreadFor;
      q = q.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('read_progress')
              .select('read_progress.book_id')
              .whereRef('read_progress.book_id', '=', 'book.id')
              .where('read_progress.user_id', '=', userId)
              .where('read_progress.completed', '=', 1),
          ),
        ),
      );
    }
    const dir = opts.last ? 'desc' : 'asc';
    const row = await q
      .orderBy((eb) => eb.fn.coalesce('book_metadata.number_sort', 'book.number'), dir)
      .orderBy('book.number', dir)
      .orderBy('book.id', dir)
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /** Non-deleted books, for regenerating every poster. */
  async allBookIds(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('book')
      .select('id')
      .where('deleted_date', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Non-deleted books whose GENERATED poster is smaller than `edge` on both sides (engine.md §7.1). */
  async bookIdsWithGeneratedSmallerThan(edge: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('thumbnail_book')
      .innerJoin('book', 'book.id', 'thumbnail_book.book_id')
      .select('book.id')
      .distinct()
      .where('thumbnail_book.type', '=', 'GENERATED')
      .where('thumbnail_book.width', '<', edge)
      .where('thumbnail_book.height', '<', edge)
      .where('book.deleted_date', 'is', null)
      .orderBy('book.id')
      .execute();
    return rows.map((r) => r.id);
  }

  private select(owner: ThumbnailOwner) {
    return this.db.selectFrom(tableOf(owner)).select([...COLUMNS, `${ownerColumn(owner)} as owner_id`]);
  }
}

const COLUMNS = [
  'id',
  'type',
  'url',
  'selected',
  'media_type',
  'file_size',
  'width',
  'height',
  'created_date',
  'last_modified_date',
] as const;

function toThumbnail(owner: ThumbnailOwner, r: Row & { owner_id: string }): StoredThumbnail {
  return {
    id: r.id,
    owner,
    ownerId: r.owner_id,
    type: r.type as StoredThumbnailType,
    url: r.url,
    selected: Boolean(r.selected),
    mediaType: r.media_type,
    fileSize: r.file_size,
    width: r.width,
    height: r.height,
    createdDate: r.created_date,
    lastModifiedDate: r.last_modified_date,
  };
}
