import type { Db } from '../database.js';
import type { AggregationRecord, Dated, SeriesMetadata } from '../../domain/metadata.js';
import type { BookAccess } from '../../domain/book.js';
import { sharingLabels } from './books.js';

/** Read model of a series, shaped for SeriesDto (api.md §4.2), with the caller's read counts. */

export interface SeriesView {
  id: string;
  libraryId: string;
  name: string;
  /** file: URL of the folder. */
  url: string;
  createdDate: string;
  lastModifiedDate: string;
  fileLastModified: string;
  booksCount: number;
  booksReadCount: number;
  booksInProgressCount: number;
  deleted: boolean;
  oneshot: boolean;
  metadata: SeriesMetadata & Dated;
  booksMetadata: AggregationRecord & Dated;
  access: BookAccess;
}

export interface SeriesBookFile {
  id: string;
  seriesId: string;
  libraryId: string;
  name: string;
  url: string;
}

export class SeriesQueries {
  constructor(private readonly db: Db) {}

  async findById(seriesId: string, userId: string): Promise<SeriesView | undefined> {
    return (await this.findMany([seriesId], userId))[0];
  }

  /**
   * Series in the order of `ids` (unknown ids skipped), with the caller's read counts from read_progress_series
   * (soft-deleted books included, as `booksCount` includes them: engine.md §13.3).
   */
  async findMany(ids: readonly string[], userId: string): Promise<SeriesView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('series as s')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .leftJoin('book_metadata_aggregation as ag', 'ag.series_id', 's.id')
      .leftJoin('read_progress_series as rs', (j) => j.onRef('rs.series_id', '=', 's.id').on('rs.user_id', '=', userId))
      .selectAll('sm')
      .select([
        's.id',
        's.library_id',
        's.name',
        's.url',
        's.created_date as s_created',
        's.last_modified_date as s_last_modified',
        's.file_last_modified',
        's.book_count',
        's.oneshot',
        's.deleted_date',
        'ag.release_date as ag_release_date',
        'ag.summary as ag_summary',
        'ag.summary_number as ag_summary_number',
        'ag.created_date as ag_created',
        'ag.last_modified_date as ag_last_modified',
        'rs.read_count',
        'rs.in_progress_count',
      ])
      .where('s.id', 'in', ids)
      .execute();
    if (rows.length === 0) return [];
    const found = rows.map((r) => r.id);
    const [genres, tags, labels, links, alternate, agAuthors, agTags] = await Promise.all([
      this.db
        .selectFrom('series_metadata_genre')
        .select(['series_id', 'genre'])
        .where('series_id', 'in', found)
        .orderBy('position')
        .execute(),
      this.db
        .selectFrom('series_metadata_tag')
        .select(['series_id', 'tag'])
        .where('series_id', 'in', found)
        .orderBy('position')
        .execute(),
      sharingLabels(this.db, found),
      this.db
        .selectFrom('series_metadata_link')
        .select(['series_id', 'label', 'url'])
        .where('series_id', 'in', found)
        .orderBy('position')
        .execute(),
      this.db
        .selectFrom('series_metadata_alternate_title')
        .select(['series_id', 'label', 'title'])
        .where('series_id', 'in', found)
        .orderBy('position')
        .execute(),
      this.db
        .selectFrom('book_metadata_aggregation_author')
        .select(['series_id', 'name', 'role'])
        .where('series_id', 'in', found)
        .execute(),
      this.db
        .selectFrom('book_metadata_aggregation_tag')
        .select(['series_id', 'tag'])
        .where('series_id', 'in', found)
        .orderBy('tag')
        .execute(),
    ]);
    const bySeries = <T extends { series_id: string }>(list: T[]) => {
      const m = new Map<string, T[]>();
      for (const x of list) {
        const l = m.get(x.series_id);
        if (l) l.push(x);
        else m.set(x.series_id, [x]);
      }
      return m;
    };
    const g = bySeries(genres);
    const t = bySeries(tags);
    const l = bySeries(links);
    const a = bySeries(alternate);
    const aa = bySeries(agAuthors);
    const at = bySeries(agTags);
    const views = new Map(
      rows.map((s): [string, SeriesView] => {
        const sharing = labels.get(s.id) ?? [];
        return [
          s.id,
          {
            id: s.id,
            libraryId: s.library_id,
            name: s.name,
            url: s.url,
            createdDate: s.s_created,
            lastModifiedDate: s.s_last_modified,
            fileLastModified: s.file_last_modified,
            booksCount: s.book_count,
            booksReadCount: Number(s.read_count ?? 0),
            booksInProgressCount: Number(s.in_progress_count ?? 0),
            deleted: s.deleted_date !== null,
            oneshot: Boolean(s.oneshot),
            metadata: {
              status: s.status,
              statusLock: Boolean(s.status_lock),
              title: s.title,
              titleLock: Boolean(s.title_lock),
              titleSort: s.title_sort,
              titleSortLock: Boolean(s.title_sort_lock),
              summary: s.summary,
              summaryLock: Boolean(s.summary_lock),
              readingDirection: s.reading_direction,
              readingDirectionLock: Boolean(s.reading_direction_lock),
              publisher: s.publisher,
              publisherLock: Boolean(s.publisher_lock),
              ageRating: s.age_rating,
              ageRatingLock: Boolean(s.age_rating_lock),
              language: s.language,
              languageLock: Boolean(s.language_lock),
              genres: (g.get(s.id) ?? []).map((x) => x.genre),
              genresLock: Boolean(s.genres_lock),
              tags: (t.get(s.id) ?? []).map((x) => x.tag),
              tagsLock: Boolean(s.tags_lock),
              totalBookCount: s.total_book_count,
              totalBookCountLock: Boolean(s.total_book_count_lock),
              sharingLabels: sharing,
              sharingLabelsLock: Boolean(s.sharing_labels_lock),
              links: (l.get(s.id) ?? []).map(({ label, url }) => ({ label, url })),
              linksLock: Boolean(s.links_lock),
              alternateTitles: (a.get(s.id) ?? []).map(({ label, title }) => ({ label, title })),
              alternateTitlesLock: Boolean(s.alternate_titles_lock),
              createdDate: s.created_date,
              lastModifiedDate: s.last_modified_date,
            },
            booksMetadata: {
              authors: (aa.get(s.id) ?? []).map(({ name, role }) => ({ name, role })),
              tags: (at.get(s.id) ?? []).map((x) => x.tag),
              releaseDate: s.ag_release_date ?? null,
              summary: s.ag_summary ?? '',
              summaryNumber: s.ag_summary_number ?? '',
              createdDate: s.ag_created ?? s.created_date,
              lastModifiedDate: s.ag_last_modified ?? s.last_modified_date,
            },
            access: { libraryId: s.library_id, ageRating: s.age_rating, sharingLabels: sharing },
          },
        ];
      }),
    );
    return ids.flatMap((id) => views.get(id) ?? []);
  }

  /** Title and what access checks need, without the rest. */
  async findAccess(seriesId: string): Promise<(BookAccess & { title: string }) | undefined> {
    const s = await this.db
      .selectFrom('series as s')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select(['s.library_id', 'sm.age_rating', 'sm.title'])
      .where('s.id', '=', seriesId)
      .executeTakeFirst();
    if (!s) return undefined;
    const labels = await sharingLabels(this.db, [seriesId]);
    return {
      libraryId: s.library_id,
      ageRating: s.age_rating,
      sharingLabels: labels.get(seriesId) ?? [],
      title: s.title,
    };
  }

  /** The series' books (not deleted), in number order. */
  async books(seriesId: string): Promise<SeriesBookFile[]> {
    const rows = await this.db
      .selectFrom('book')
      .select(['id', 'series_id', 'library_id', 'name', 'url'])
      .where('series_id', '=', seriesId)
      .where('deleted_date', 'is', null)
      .orderBy('number')
      .execute();
    return rows.map((r) => ({ id: r.id, seriesId: r.series_id, libraryId: r.library_id, name: r.name, url: r.url }));
  }
}
