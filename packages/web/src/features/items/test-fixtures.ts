import type { BookDto, CollectionDto, Page, ReadListDto, SeriesDto } from '@quire/api';

/** DTOs for the item tests: a valid object of each kind, overridable field by field. */

const DATE = '2024-05-01T10:00:00Z';

export function buildBook(overrides: Partial<BookDto> = {}, metadata: Partial<BookDto['metadata']> = {}): BookDto {
  return {
    id: 'book-1',
    seriesId: 'series-1',
    seriesTitle: 'Saga',
    libraryId: 'lib-1',
    name: 'Saga 001',
    url: '/data/comics/Saga/Saga 001.cbz',
    number: 1,
    created: DATE,
    lastModified: DATE,
    fileLastModified: DATE,
    sizeBytes: 12_345_678,
    size: '11.8 MiB',
    media: {
      status: 'READY',
      mediaType: 'application/zip',
      pagesCount: 24,
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
      releaseDate: '2012-03-14',
      releaseDateLock: false,
      authors: [{ name: 'Brian K. Vaughan', role: 'writer' }],
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
    name: 'Saga',
    url: '/data/comics/Saga',
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
      title: 'Saga',
      titleLock: false,
      titleSort: 'Saga',
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
      releaseDate: null,
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
    name: 'Space operas',
    ordered: false,
    seriesIds: ['series-1'],
    createdDate: DATE,
    lastModifiedDate: DATE,
    filtered: false,
    ...overrides,
  };
}

export function buildReadList(overrides: Partial<ReadListDto> = {}): ReadListDto {
  return {
    id: 'rl-1',
    name: 'Summer reading',
    summary: '',
    ordered: true,
    bookIds: ['book-1'],
    createdDate: DATE,
    lastModifiedDate: DATE,
    filtered: false,
    ...overrides,
  };
}

export function page<T>(content: T[]): Page<T> {
  return {
    content,
    pageable: {
      pageNumber: 0,
      pageSize: Math.max(content.length, 20),
      offset: 0,
      paged: true,
      unpaged: false,
      sort: { empty: true, sorted: false, unsorted: true },
    },
    totalElements: content.length,
    totalPages: content.length ? 1 : 0,
    last: true,
    first: true,
    size: Math.max(content.length, 20),
    number: 0,
    numberOfElements: content.length,
    empty: content.length === 0,
    sort: { empty: true, sorted: false, unsorted: true },
  };
}
