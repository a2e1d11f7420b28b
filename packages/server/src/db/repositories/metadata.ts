import { atomically, type Db } from '../database.js';
import type { MetadataRepository } from '../../domain/ports.js';
import type {
  BookMetadata,
  BookMetadataChanges,
  SeriesMetadata,
  SeriesMetadataChanges,
  AggregationRecord,
  AggregationSource,
} from '../../domain/metadata.js';

/**
 * The one writer of book and series metadata, their side tables (authors, tags, links, genres, labels,
 * alternate titles) and the per-series aggregation of book metadata (engine.md §6.2, §6.9). Updates are
 * partial: only the fields present in the changes are written, each change in one transaction that also
 * bumps the row's `last_modified_date`.
 */

const CHUNK = 500;
const chunks = <T>(xs: readonly T[]) => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
};
const bit = (b: boolean) => (b ? 1 : 0);
const groupBy = <T, K extends keyof T>(rows: readonly T[], key: K) => {
  const map = new Map<T[K], T[]>();
  for (const r of rows) {
    const list = map.get(r[key]);
    if (list) list.push(r);
    else map.set(r[key], [r]);
  }
  return map;
};

/** Scalar columns of `book_metadata` by field; list fields live in side tables. */
const BOOK_COLUMNS = {
  title: 'title',
  titleLock: 'title_lock',
  summary: 'summary',
  summaryLock: 'summary_lock',
  number: 'number',
  numberLock: 'number_lock',
  numberSort: 'number_sort',
  numberSortLock: 'number_sort_lock',
  releaseDate: 'release_date',
  releaseDateLock: 'release_date_lock',
  authorsLock: 'authors_lock',
  tagsLock: 'tags_lock',
  isbn: 'isbn',
  isbnLock: 'isbn_lock',
  linksLock: 'links_lock',
} as const;

const SERIES_COLUMNS = {
  status: 'status',
  statusLock: 'status_lock',
  title: 'title',
  titleLock: 'title_lock',
  titleSort: 'title_sort',
  titleSortLock: 'title_sort_lock',
  summary: 'summary',
  summaryLock: 'summary_lock',
  readingDirection: 'reading_direction',
  readingDirectionLock: 'reading_direction_lock',
  publisher: 'publisher',
  publisherLock: 'publisher_lock',
  ageRating: 'age_rating',
  ageRatingLock: 'age_rating_lock',
  language: 'language',
  languageLock: 'language_lock',
  genresLock: 'genres_lock',
  tagsLock: 'tags_lock',
  totalBookCount: 'total_book_count',
  totalBookCountLock: 'total_book_count_lock',
  sharingLabelsLock: 'sharing_labels_lock',
  linksLock: 'links_lock',
  alternateTitlesLock: 'alternate_titles_lock',
} as const;

/** The columns to set for the scalar fields present in `changes` (booleans as 0/1). */
function columnsOf(changes: Record<string, unknown>, columns: Record<string, string>): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(columns)) {
    if (!(field in changes) || changes[field] === undefined) continue;
    const value = changes[field];
    set[column] = typeof value === 'boolean' ? bit(value) : value;
  }
  return set;
}

export class KyselyMetadataRepository implements MetadataRepository {
  constructor(private readonly db: Db) {}

  async findBook(bookId: string, t: Db = this.db): Promise<BookMetadata | undefined> {
    return (await this.findBooks([bookId], t)).get(bookId);
  }

  async findBooks(bookIds: readonly string[], t: Db = this.db): Promise<Map<string, BookMetadata>> {
    const out = new Map<string, BookMetadata>();
    for (const part of chunks([...new Set(bookIds)])) {
      const [rows, authors, tags, links] = await Promise.all([
        t.selectFrom('book_metadata').selectAll().where('book_id', 'in', part).execute(),
        t
          .selectFrom('book_metadata_author')
          .select(['book_id', 'name', 'role'])
          .where('book_id', 'in', part)
          .orderBy('position')
          .execute(),
        t
          .selectFrom('book_metadata_tag')
          .select(['book_id', 'tag'])
          .where('book_id', 'in', part)
          .orderBy('position')
          .execute(),
        t
          .selectFrom('book_metadata_link')
          .select(['book_id', 'label', 'url'])
          .where('book_id', 'in', part)
          .orderBy('position')
          .execute(),
      ]);
      const a = groupBy(authors, 'book_id');
      const tg = groupBy(tags, 'book_id');
      const l = groupBy(links, 'book_id');
      for (const r of rows) {
        out.set(r.book_id, {
          title: r.title,
          titleLock: Boolean(r.title_lock),
          summary: r.summary,
          summaryLock: Boolean(r.summary_lock),
          number: r.number,
          numberLock: Boolean(r.number_lock),
          numberSort: Number(r.number_sort),
          numberSortLock: Boolean(r.number_sort_lock),
          releaseDate: r.release_date,
          releaseDateLock: Boolean(r.release_date_lock),
          authors: (a.get(r.book_id) ?? []).map((x) => ({ name: x.name, role: x.role })),
          authorsLock: Boolean(r.authors_lock),
          tags: (tg.get(r.book_id) ?? []).map((x) => x.tag),
          tagsLock: Boolean(r.tags_lock),
          isbn: r.isbn,
          isbnLock: Boolean(r.isbn_lock),
          links: (l.get(r.book_id) ?? []).map((x) => ({ label: x.label, url: x.url })),
          linksLock: Boolean(r.links_lock),
        });
      }
    }
    return out;
  }

  async findSeries(seriesId: string, t: Db = this.db): Promise<SeriesMetadata | undefined> {
    const [row, genres, tags, labels, links, titles] = await Promise.all([
      t.selectFrom('series_metadata').selectAll().where('series_id', '=', seriesId).executeTakeFirst(),
      t
        .selectFrom('series_metadata_genre')
        .select('genre')
        .where('series_id', '=', seriesId)
        .orderBy('position')
        .execute(),
      t.selectFrom('series_metadata_tag').select('tag').where('series_id', '=', seriesId).orderBy('position').execute(),
      t
        .selectFrom('series_metadata_sharing')
        .select('label')
        .where('series_id', '=', seriesId)
        .orderBy('position')
        .execute(),
      t
        .selectFrom('series_metadata_link')
        .select(['label', 'url'])
        .where('series_id', '=', seriesId)
        .orderBy('position')
        .execute(),
      t
        .selectFrom('series_metadata_alternate_title')
        .select(['label', 'title'])
        .where('series_id', '=', seriesId)
        .orderBy('position')
        .execute(),
    ]);
    if (!row) return undefined;
    return {
      status: row.status,
      statusLock: Boolean(row.status_lock),
      title: row.title,
      titleLock: Boolean(row.title_lock),
      titleSort: row.title_sort,
      titleSortLock: Boolean(row.title_sort_lock),
      summary: row.summary,
      summaryLock: Boolean(row.summary_lock),
      readingDirection: row.reading_direction,
      readingDirectionLock: Boolean(row.reading_direction_lock),
      publisher: row.publisher,
      publisherLock: Boolean(row.publisher_lock),
      ageRating: row.age_rating,
      ageRatingLock: Boolean(row.age_rating_lock),
      language: row.language,
      languageLock: Boolean(row.language_lock),
      genres: genres.map((g) => g.genre),
      genresLock: Boolean(row.genres_lock),
      tags: tags.map((g) => g.tag),
      tagsLock: Boolean(row.tags_lock),
      totalBookCount: row.total_book_count,
      totalBookCountLock: Boolean(row.total_book_count_lock),
      sharingLabels: labels.map((g) => g.label),
      sharingLabelsLock: Boolean(row.sharing_labels_lock),
      links: links.map((x) => ({ label: x.label, url: x.url })),
      linksLock: Boolean(row.links_lock),
      alternateTitles: titles.map((x) => ({ label: x.label, title: x.title })),
      alternateTitlesLock: Boolean(row.alternate_titles_lock),
    };
  }

  /** Writes the fields present in `changes`; false when the book has no metadata row. */
  async updateBook(bookId: string, changes: BookMetadataChanges, at: Date, t: Db = this.db): Promise<boolean> {
    const now = at.toISOString();
    return atomically(t, async (tx) => {
      const res = await tx
        .updateTable('book_metadata')
        .set({ ...columnsOf(changes, BOOK_COLUMNS), last_modified_date: now })
        .where('book_id', '=', bookId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      if (changes.authors) {
        await tx.deleteFrom('book_metadata_author').where('book_id', '=', bookId).execute();
        if (changes.authors.length > 0)
          await tx
            .insertInto('book_metadata_author')
            .values(changes.authors.map((a, position) => ({ book_id: bookId, position, name: a.name, role: a.role })))
            .execute();
      }
      if (changes.tags) {
        await tx.deleteFrom('book_metadata_tag').where('book_id', '=', bookId).execute();
        if (changes.tags.length > 0)
          await tx
            .insertInto('book_metadata_tag')
            .values(changes.tags.map((tag, position) => ({ book_id: bookId, position, tag })))
            .execute();
      }
      if (changes.links) {
        await tx.deleteFrom('book_metadata_link').where('book_id', '=', bookId).execute();
        if (changes.links.length > 0)
          await tx
            .insertInto('book_metadata_link')
            .values(changes.links.map((l, position) => ({ book_id: bookId, position, label: l.label, url: l.url })))
            .execute();
      }
      return true;
    });
  }

  /** Several books in one transaction; returns the ids that had a metadata row. */
  async updateBooks(
    updates: readonly { bookId: string; changes: BookMetadataChanges }[],
    at: Date,
    t: Db = this.db,
  ): Promise<string[]> {
    return atomically(t, async (tx) => {
      const updated: string[] = [];
      for (const u of updates) if (await this.updateBook(u.bookId, u.changes, at, tx)) updated.push(u.bookId);
      return updated;
    });
  }

  /** Writes the fields present in `changes`; false when the series has no metadata row. */
  async updateSeries(seriesId: string, changes: SeriesMetadataChanges, at: Date, t: Db = this.db): Promise<boolean> {
    const now = at.toISOString();
    return atomically(t, async (tx) => {
      const res = await tx
        .updateTable('series_metadata')
        .set({ ...columnsOf(changes, SERIES_COLUMNS), last_modified_date: now })
        .where('series_id', '=', seriesId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      const replace = async <T extends object>(
        table:
          | 'series_metadata_genre'
          | 'series_metadata_tag'
          | 'series_metadata_sharing'
          | 'series_metadata_link'
          | 'series_metadata_alternate_title',
        values: T[] | undefined,
      ) => {
        if (!values) return;
        await tx.deleteFrom(table).where('series_id', '=', seriesId).execute();
        if (values.length === 0) return;
        await tx
          .insertInto(table)
          .values(values.map((v, position) => ({ series_id: seriesId, position, ...v })) as never)
          .execute();
      };
      await replace(
        'series_metadata_genre',
        changes.genres?.map((genre) => ({ genre })),
      );
      await replace(
        'series_metadata_tag',
        changes.tags?.map((tag) => ({ tag })),
      );
      await replace(
        'series_metadata_sharing',
        changes.sharingLabels?.map((label) => ({ label })),
      );
      await replace(
        'series_metadata_link',
        changes.links?.map((l) => ({ label: l.label, url: l.url })),
      );
      await replace(
        'series_metadata_alternate_title',
        changes.alternateTitles?.map((a) => ({ label: a.label, title: a.title })),
      );
      return true;
    });
  }

  /**
   * Every book of the series, soft-deleted ones included (engine.md §6.9), ordered by `numberSort` then
   * position in the series.
   */
  async aggregationSources(seriesId: string, t: Db = this.db): Promise<AggregationSource[]> {
    const rows = await t
      .selectFrom('book as b')
      .innerJoin('book_metadata as bm', 'bm.book_id', 'b.id')
      .select(['b.id', 'bm.number', 'bm.number_sort', 'bm.summary', 'bm.release_date'])
      .where('b.series_id', '=', seriesId)
      .orderBy('bm.number_sort')
      .orderBy('b.number')
      .orderBy('b.id')
      .execute();
    const metadata = await this.findBooks(
      rows.map((r) => r.id),
      t,
    );
    return rows.map((r) => ({
      bookId: r.id,
      number: r.number,
      numberSort: Number(r.number_sort),
      summary: r.summary,
      releaseDate: r.release_date,
      authors: metadata.get(r.id)?.authors ?? [],
      tags: metadata.get(r.id)?.tags ?? [],
    }));
  }

  async findAggregation(seriesId: string, t: Db = this.db): Promise<AggregationRecord | undefined> {
    const [row, authors, tags] = await Promise.all([
      t
        .selectFrom('book_metadata_aggregation')
        .select(['release_date', 'summary', 'summary_number'])
        .where('series_id', '=', seriesId)
        .executeTakeFirst(),
      t
        .selectFrom('book_metadata_aggregation_author')
        .select(['name', 'role'])
        .where('series_id', '=', seriesId)
        .execute(),
      t.selectFrom('book_metadata_aggregation_tag').select('tag').where('series_id', '=', seriesId).execute(),
    ]);
    if (!row) return undefined;
    return {
      authors: authors.map((a) => ({ name: a.name, role: a.role })),
      tags: tags.map((x) => x.tag),
      releaseDate: row.release_date,
      summary: row.summary,
      summaryNumber: row.summary_number,
    };
  }

  /** Replaces the aggregation of a series (creating its row if a series somehow lacks one). */
  async replaceAggregation(seriesId: string, aggregation: AggregationRecord, at: Date, t: Db = this.db) {
    const now = at.toISOString();
    await atomically(t, async (tx) => {
      const values = {
        release_date: aggregation.releaseDate,
        summary: aggregation.summary,
        summary_number: aggregation.summaryNumber,
        last_modified_date: now,
      };
      const res = await tx
        .updateTable('book_metadata_aggregation')
        .set(values)
        .where('series_id', '=', seriesId)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0)
        await tx
          .insertInto('book_metadata_aggregation')
          .values({ series_id: seriesId, ...values, created_date: now })
          .execute();
      await tx.deleteFrom('book_metadata_aggregation_author').where('series_id', '=', seriesId).execute();
      for (const part of chunks(aggregation.authors))
        await tx
          .insertInto('book_metadata_aggregation_author')
          .values(part.map((a) => ({ series_id: seriesId, name: a.name, role: a.role })))
          .execute();
      await tx.deleteFrom('book_metadata_aggregation_tag').where('series_id', '=', seriesId).execute();
      for (const part of chunks(aggregation.tags))
        await tx
          .insertInto('book_metadata_aggregation_tag')
          .values(part.map((tag) => ({ series_id: seriesId, tag })))
          .execute();
    });
  }
}
