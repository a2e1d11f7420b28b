import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';

/** Test builders of the DTOs the edit dialogs take (component tests only). */

const DATE = '2024-05-01T10:00:00Z';

export function buildBook(
  overrides: Partial<Omit<BookDto, 'metadata'>> & { metadata?: Partial<BookDto['metadata']> } = {},
): BookDto {
  const { metadata, ...rest } = overrides;
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
    sizeBytes: 1000,
    size: '1000 B',
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
      releaseDate: null,
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
    ...rest,
  };
}

export function buildSeries(
  overrides: Partial<Omit<SeriesDto, 'metadata'>> & { metadata?: Partial<SeriesDto['metadata']> } = {},
): SeriesDto {
  const { metadata, ...rest } = overrides;
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
    ...rest,
  };
}

export function buildCollection(overrides: Partial<CollectionDto> = {}): CollectionDto {
  return {
    id: 'col-1',
    name: 'Favourites',
    ordered: false,
    seriesIds: ['series-9'],
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
    bookIds: ['book-9'],
    createdDate: DATE,
    lastModifiedDate: DATE,
    filtered: false,
    ...overrides,
  };
}
