import { AUTHOR_ROLES } from './format';

/** Links from detail-page chips to filtered lists (ui.md §5-§7). */

export interface LibraryFilterLink {
  status?: string[];
  genre?: string[];
  tag?: string[];
  publisher?: string[];
  language?: string[];
  ageRating?: string[];
  author?: { name: string; role: string }[];
}

const enc = encodeURIComponent;

/** Whether an author chip can lead to a list filtered by that author: the filters cover the standard roles. */
export const isFilterableRole = (role: string) => (AUTHOR_ROLES as readonly string[]).includes(role);

/**
 * The library's series browse, filtered as given, in the browse's URL form: one `key=is:value` token per value
 * (components/browse/filters.ts), authors under their role's key.
 */
export function libraryBrowsePath(libraryId: string, filter: LibraryFilterLink = {}): string {
  const params = new URLSearchParams();
  const add = (key: string, values: readonly string[] | undefined) =>
    values?.forEach((v) => params.append(key, `is:${v}`));
  add('status', filter.status);
  add('genre', filter.genre);
  add('tag', filter.tag);
  add('publisher', filter.publisher);
  add('language', filter.language);
  add('ageRating', filter.ageRating);
  for (const { name, role } of filter.author ?? []) if (isFilterableRole(role)) params.append(role, `is:${name}`);
  const qs = params.toString();
  return `/libraries/${enc(libraryId)}/series${qs ? `?${qs}` : ''}`;
}

/** Filters of a series page's book grid (features/items/seriesBooksFilter.ts). */
export interface SeriesBooksFilterLink {
  tag?: string[];
  author?: { name: string; role: string }[];
}

/** A series page with its books filtered (a book page's author and tag chips lead here). */
export function seriesBooksPath(seriesId: string, filter: SeriesBooksFilterLink = {}): string {
  const params = new URLSearchParams();
  for (const tag of filter.tag ?? []) params.append('tag', `is:${tag}`);
  for (const { name, role } of filter.author ?? []) if (isFilterableRole(role)) params.append(role, `is:${name}`);
  const qs = params.toString();
  return `/series/${enc(seriesId)}${qs ? `?${qs}` : ''}`;
}
