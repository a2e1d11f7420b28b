import type { BookDto, CollectionDto, ReadListDto, SeriesDto } from '@quire/api';
import * as shared from '../../test/fixtures';

/** The edit dialogs' tests: the shared builders with a "Saga" series, undated; metadata given inside the overrides. */

export function buildBook(
  overrides: Partial<Omit<BookDto, 'metadata'>> & { metadata?: Partial<BookDto['metadata']> } = {},
): BookDto {
  const { metadata, ...rest } = overrides;
  return shared.buildBook(
    {
      id: 'book-1',
      seriesTitle: 'Saga',
      name: 'Saga 001',
      url: '/data/comics/Saga/Saga 001.cbz',
      sizeBytes: 1000,
      size: '1000 B',
      ...rest,
    },
    { releaseDate: null, ...metadata },
  );
}

export function buildSeries(
  overrides: Partial<Omit<SeriesDto, 'metadata'>> & { metadata?: Partial<SeriesDto['metadata']> } = {},
): SeriesDto {
  const { metadata, ...rest } = overrides;
  const base = shared.buildSeries();
  return shared.buildSeries(
    {
      name: 'Saga',
      url: '/data/comics/Saga',
      booksMetadata: { ...base.booksMetadata, releaseDate: null },
      ...rest,
    },
    { title: 'Saga', titleSort: 'Saga', ...metadata },
  );
}

export const buildCollection = (overrides: Partial<CollectionDto> = {}): CollectionDto =>
  shared.buildCollection({ seriesIds: ['series-9'], ...overrides });

export const buildReadList = (overrides: Partial<ReadListDto> = {}): ReadListDto =>
  shared.buildReadList({ name: 'Summer reading', bookIds: ['book-9'], ...overrides });
