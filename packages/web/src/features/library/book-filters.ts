import type { MediaProfile, MediaStatus } from '@quire/api';
import type { SortOption, SortValue } from '../../components/browse/filters';
import { AUTHOR_ROLES } from './series-filters';

/**
 * The library's Books tab (ui.md §4.2). Its filters are turned into search conditions by the book filters the series
 * page uses too (features/items/bookFilters.ts); these are the tab's keys, values and sorts.
 */
export const LIBRARY_BOOK_FILTER_KEYS = [
  'readStatus',
  'oneShot',
  'deleted',
  'tag',
  'mediaProfile',
  'mediaStatus',
  ...AUTHOR_ROLES,
] as const;

export const MEDIA_PROFILES: readonly MediaProfile[] = ['DIVINA', 'PDF', 'EPUB'];
export const MEDIA_STATUSES: readonly MediaStatus[] = ['READY', 'UNKNOWN', 'ERROR', 'UNSUPPORTED', 'OUTDATED'];

/** Sort keys and their label keys; the series sort orders by series title, then by number in the series. */
const SORTS: readonly { key: string; label: string }[] = [
  { key: 'series,metadata.numberSort', label: 'series' },
  { key: 'metadata.title', label: 'title' },
  { key: 'createdDate', label: 'createdDate' },
  { key: 'lastModifiedDate', label: 'lastModifiedDate' },
  { key: 'metadata.releaseDate', label: 'releaseDate' },
  { key: 'readProgress.readDate', label: 'readDate' },
  { key: 'fileSize', label: 'fileSize' },
  { key: 'name', label: 'fileName' },
  { key: 'media.pagesCount', label: 'pagesCount' },
];

export const DEFAULT_LIBRARY_BOOK_SORT: SortValue = { key: 'series,metadata.numberSort', order: 'asc' };

export function libraryBookSortOptions(t: (key: string) => string): SortOption[] {
  return SORTS.map(({ key, label }) => ({ key, label: t(`library.bookSort.${label}`) }));
}
