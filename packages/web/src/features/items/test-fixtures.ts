import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';
import * as shared from '../../test/fixtures';

/** The item tests' world: the shared builders with a "Saga" series and a book that has an author and a release date. */

export { page } from '../../test/fixtures';

export function buildBook(overrides: Partial<BookDto> = {}, metadata: Partial<BookDto['metadata']> = {}): BookDto {
  const base = shared.buildBook();
  return shared.buildBook(
    {
      id: 'book-1',
      seriesTitle: 'Saga',
      name: 'Saga 001',
      url: '/data/comics/Saga/Saga 001.cbz',
      sizeBytes: 12_345_678,
      size: '11.8 MiB',
      media: { ...base.media, pagesCount: 24 },
      ...overrides,
    },
    { releaseDate: '2012-03-14', authors: [{ name: 'Brian K. Vaughan', role: 'writer' }], ...metadata },
  );
}

export function buildSeries(
  overrides: Partial<SeriesDto> = {},
  metadata: Partial<SeriesDto['metadata']> = {},
): SeriesDto {
  const base = shared.buildSeries();
  return shared.buildSeries(
    {
      name: 'Saga',
      url: '/data/comics/Saga',
      booksMetadata: { ...base.booksMetadata, releaseDate: null },
      ...overrides,
    },
    { title: 'Saga', titleSort: 'Saga', ...metadata },
  );
}

export const buildCollection = (overrides: Partial<CollectionDto> = {}): CollectionDto =>
  shared.buildCollection({ name: 'Space operas', seriesIds: ['series-1'], ...overrides });

export const buildReadList = (overrides: Partial<ReadListDto> = {}): ReadListDto =>
  shared.buildReadList({ name: 'Summer reading', ...overrides });
