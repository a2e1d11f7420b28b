import { fileURLToPath } from 'node:url';
import type { SeriesDto } from '@quire/api';
import type { SeriesView } from '../../db/queries/series.js';
import { utcDateTime } from './users.js';

/** SeriesDto; `url` is the folder path for admins and "" for everyone else (api.md §2.6). */
export function toSeriesDto(s: SeriesView, admin: boolean): SeriesDto {
  const m = s.metadata;
  const a = s.booksMetadata;
  let path = '';
  if (admin) {
    try {
      path = fileURLToPath(s.url).replace(/(.)\/+$/, '$1');
    } catch {
      path = s.url;
    }
  }
  return {
    id: s.id,
    libraryId: s.libraryId,
    name: s.name,
    url: path,
    created: utcDateTime(s.createdDate),
    lastModified: utcDateTime(s.lastModifiedDate),
    fileLastModified: utcDateTime(s.fileLastModified),
    booksCount: s.booksCount,
    booksReadCount: s.booksReadCount,
    booksUnreadCount: Math.max(0, s.booksCount - s.booksReadCount - s.booksInProgressCount),
    booksInProgressCount: s.booksInProgressCount,
    metadata: {
      status: m.status,
      statusLock: m.statusLock,
      title: m.title,
      titleLock: m.titleLock,
      titleSort: m.titleSort,
      titleSortLock: m.titleSortLock,
      summary: m.summary,
      summaryLock: m.summaryLock,
      readingDirection: m.readingDirection ?? '',
      readingDirectionLock: m.readingDirectionLock,
      publisher: m.publisher,
      publisherLock: m.publisherLock,
      ageRating: m.ageRating,
      ageRatingLock: m.ageRatingLock,
      language: m.language,
      languageLock: m.languageLock,
      genres: m.genres,
      genresLock: m.genresLock,
      tags: m.tags,
      tagsLock: m.tagsLock,
      totalBookCount: m.totalBookCount,
      totalBookCountLock: m.totalBookCountLock,
      sharingLabels: m.sharingLabels,
      sharingLabelsLock: m.sharingLabelsLock,
      links: m.links,
      linksLock: m.linksLock,
      alternateTitles: m.alternateTitles,
      alternateTitlesLock: m.alternateTitlesLock,
      created: utcDateTime(m.createdDate),
      lastModified: utcDateTime(m.lastModifiedDate),
    },
    booksMetadata: {
      authors: a.authors,
      tags: a.tags,
      releaseDate: a.releaseDate,
      summary: a.summary,
      summaryNumber: a.summaryNumber,
      created: utcDateTime(a.createdDate),
      lastModified: utcDateTime(a.lastModifiedDate),
    },
    deleted: s.deleted,
    oneshot: s.oneshot,
  };
}
