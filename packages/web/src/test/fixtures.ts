import type { BookDto, CollectionDto, Page, ReadListDto, SeriesDto, UserDto } from '@quire/api';
import { LIBRARY_DEFAULTS, type LibraryDto } from '../api/libraries';

export function buildUser(overrides: Partial<UserDto> = {}): UserDto {
  return {
    id: 'user-1',
    email: 'reader@example.org',
    roles: ['USER', 'FILE_DOWNLOAD', 'PAGE_STREAMING'],
    sharedAllLibraries: true,
    sharedLibrariesIds: [],
    labelsAllow: [],
    labelsExclude: [],
    ...overrides,
  };
}

export const buildAdmin = (overrides: Partial<UserDto> = {}) =>
  buildUser({
    id: 'admin-1',
    email: 'admin@example.org',
    roles: ['ADMIN', 'USER', 'FILE_DOWNLOAD', 'PAGE_STREAMING'],
    ...overrides,
  });

export function buildLibrary(overrides: Partial<LibraryDto> = {}): LibraryDto {
  return {
    ...LIBRARY_DEFAULTS,
    scanDirectoryExclusions: [...LIBRARY_DEFAULTS.scanDirectoryExclusions],
    id: 'lib-1',
    name: 'Comics',
    root: '/data/comics',
    oneshotsDirectory: null,
    unavailable: false,
    ...overrides,
  };
}

/** Books, series, collections and read lists, valid and overridable field by field; Spring page envelopes. */

const DATE = '2024-03-01T10:00:00Z';

export function buildBook(overrides: Partial<BookDto> = {}, metadata: Partial<BookDto['metadata']> = {}): BookDto {
  const id = overrides.id ?? 'book-1';
  return {
    id,
    seriesId: 'series-1',
    seriesTitle: 'Alpha',
    libraryId: 'lib-1',
    name: `${id}.cbz`,
    url: `/data/comics/Alpha/${id}.cbz`,
    number: 1,
    created: DATE,
    lastModified: DATE,
    fileLastModified: DATE,
    sizeBytes: 1024,
    size: '1 KiB',
    media: {
      status: 'READY',
      mediaType: 'application/zip',
      pagesCount: 20,
      comment: '',
      epubDivinaCompatible: false,
      epubIsKepub: false,
      mediaProfile: 'DIVINA',
    },
    metadata: {
      title: 'Chapter One',
      titleLock: false,
      summary: '',
      summaryLock: false,
      number: '1',
      numberLock: false,
      numberSort: 1,
      numberSortLock: false,
      releaseDate: '2020-05-04',
      releaseDateLock: false,
      authors: [],
      authorsLock: false,
      tags: [],
      tagsLock: false,
      isbn: '',
      isbnLock: false,
      links: [],
      linksLock: false,
      created: DATE,
      lastModified: DATE,
      ...metadata,
    },
    readProgress: null,
    deleted: false,
    fileHash: '',
    oneshot: false,
    ...overrides,
  };
}

export function buildSeries(
  overrides: Partial<SeriesDto> = {},
  metadata: Partial<SeriesDto['metadata']> = {},
): SeriesDto {
  return {
    id: 'series-1',
    libraryId: 'lib-1',
    name: 'Alpha',
    url: '/data/comics/Alpha',
    created: DATE,
    lastModified: DATE,
    fileLastModified: DATE,
    booksCount: 3,
    booksReadCount: 0,
    booksUnreadCount: 3,
    booksInProgressCount: 0,
    metadata: {
      status: 'ONGOING',
      statusLock: false,
      title: 'Alpha',
      titleLock: false,
      titleSort: 'Alpha',
      titleSortLock: false,
      summary: '',
      summaryLock: false,
      readingDirection: '',
      readingDirectionLock: false,
      publisher: '',
      publisherLock: false,
      ageRating: null,
      ageRatingLock: false,
      language: '',
      languageLock: false,
      genres: [],
      genresLock: false,
      tags: [],
      tagsLock: false,
      totalBookCount: null,
      totalBookCountLock: false,
      sharingLabels: [],
      sharingLabelsLock: false,
      links: [],
      linksLock: false,
      alternateTitles: [],
      alternateTitlesLock: false,
      created: DATE,
      lastModified: DATE,
      ...metadata,
    },
    booksMetadata: {
      authors: [],
      tags: [],
      releaseDate: '2020-05-04',
      summary: '',
      summaryNumber: '',
      created: DATE,
      lastModified: DATE,
    },
    deleted: false,
    oneshot: false,
    ...overrides,
  };
}

export function buildCollection(overrides: Partial<CollectionDto> = {}): CollectionDto {
  return {
    id: 'col-1',
    name: 'Favourites',
    ordered: false,
    seriesIds: ['series-1', 'series-2'],
    createdDate: DATE,
    lastModifiedDate: DATE,
    filtered: false,
    ...overrides,
  };
}

export function buildReadList(overrides: Partial<ReadListDto> = {}): ReadListDto {
  return {
    id: 'rl-1',
    name: 'Event order',
    summary: '',
    ordered: true,
    bookIds: ['book-1'],
    createdDate: DATE,
    lastModifiedDate: DATE,
    filtered: false,
    ...overrides,
  };
}

/** A Spring page envelope around `content`. */
export function page<T>(content: T[], opts: { number?: number; size?: number; totalElements?: number } = {}): Page<T> {
  const size = opts.size ?? 20;
  const totalElements = opts.totalElements ?? content.length;
  const totalPages = Math.ceil(totalElements / size);
  const number = opts.number ?? 0;
  const sort = { empty: true, sorted: false, unsorted: true };
  return {
    content,
    pageable: { pageNumber: number, pageSize: size, offset: number * size, paged: true, unpaged: false, sort },
    totalElements,
    totalPages,
    last: number >= totalPages - 1,
    first: number === 0,
    size,
    number,
    numberOfElements: content.length,
    empty: content.length === 0,
    sort,
  };
}
