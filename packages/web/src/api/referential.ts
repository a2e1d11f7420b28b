import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthorDto } from '@quire/api';
import { client } from './client';

/**
 * Referential values (api.md §3.6): the options of filter panels and edit dialogs, each limited to what the user can
 * see. A scope narrows them to libraries or a collection; no scope means every visible library.
 */
export type { AuthorDto };

export interface ReferentialScope {
  libraryIds?: readonly string[];
  collectionId?: string;
}

export interface AuthorSearch extends ReferentialScope {
  search?: string;
  role?: string;
  seriesId?: string;
  readListId?: string;
  /** Result count (default 20). */
  size?: number;
}

export interface BookTagScope {
  seriesId?: string;
  readListId?: string;
  libraryIds?: readonly string[];
}

/** Release dates come as `yyyy-MM-dd`; their years, newest first. */
export const releaseYears = (dates: readonly string[]): string[] =>
  [...new Set(dates.map((d) => d.slice(0, 4)).filter((y) => /^\d{4}$/.test(y)))].sort((a, b) => b.localeCompare(a));

/** A lists' scope in a stable shape, so equal scopes share one cache entry. */
const scopeKey = (s: ReferentialScope) => ({ libraryIds: s.libraryIds ?? [], collectionId: s.collectionId ?? null });

export const referentialKeys = {
  all: ['referential'] as const,
  values: (kind: ReferentialKind, scope: ReferentialScope) => [...referentialKeys.all, kind, scopeKey(scope)] as const,
  bookTags: (scope: BookTagScope) => [...referentialKeys.all, 'book-tags', scope] as const,
  authors: (search: AuthorSearch) => [...referentialKeys.all, 'authors', search] as const,
  authorNames: (search: string) => [...referentialKeys.all, 'author-names', search] as const,
  authorRoles: () => [...referentialKeys.all, 'author-roles'] as const,
};

/** The plain string lists of `/api/v1`, by kind. */
const VALUE_PATHS = {
  genres: '/api/v1/genres',
  tags: '/api/v1/tags',
  seriesTags: '/api/v1/tags/series',
  publishers: '/api/v1/publishers',
  languages: '/api/v1/languages',
  ageRatings: '/api/v1/age-ratings',
  releaseDates: '/api/v1/series/release-dates',
  sharingLabels: '/api/v1/sharing-labels',
} as const;
export type ReferentialKind = keyof typeof VALUE_PATHS;

/** Id filters are lists on the server; one id is a list of one. */
const ids = (id: string | undefined) => (id === undefined ? undefined : [id]);
const listOf = (values: readonly string[] | undefined) => values && [...values];
const scopeQuery = (s: ReferentialScope) => ({ library_id: listOf(s.libraryIds), collection_id: ids(s.collectionId) });

export const referentialQueries = {
  values: (kind: ReferentialKind, scope: ReferentialScope = {}) =>
    queryOptions({
      queryKey: referentialKeys.values(kind, scope),
      queryFn: () => client.get(VALUE_PATHS[kind], { query: scopeQuery(scope) }),
      staleTime: 60_000,
    }),
  bookTags: (scope: BookTagScope = {}) =>
    queryOptions({
      queryKey: referentialKeys.bookTags(scope),
      queryFn: () =>
        client.get('/api/v1/tags/book', {
          query: {
            series_id: ids(scope.seriesId),
            readlist_id: ids(scope.readListId),
            library_id: listOf(scope.libraryIds),
          },
        }),
      staleTime: 60_000,
    }),
  authors: (search: AuthorSearch) =>
    queryOptions({
      queryKey: referentialKeys.authors(search),
      queryFn: () =>
        client.get('/api/v2/authors', {
          query: {
            search: search.search || undefined,
            role: search.role,
            library_id: listOf(search.libraryIds),
            collection_id: ids(search.collectionId),
            series_id: ids(search.seriesId),
            readlist_id: ids(search.readListId),
            size: search.size,
          },
        }),
      placeholderData: keepPreviousData,
      staleTime: 60_000,
    }),
  authorNames: (search: string) =>
    queryOptions({
      queryKey: referentialKeys.authorNames(search),
      queryFn: () => client.get('/api/v1/authors/names', { query: { search } }),
      placeholderData: keepPreviousData,
      staleTime: 60_000,
    }),
  authorRoles: () =>
    queryOptions({
      queryKey: referentialKeys.authorRoles(),
      queryFn: () => client.get('/api/v1/authors/roles'),
      staleTime: 60_000,
    }),
};

const useValues = (kind: ReferentialKind, scope: ReferentialScope = {}, enabled = true) =>
  useQuery({ ...referentialQueries.values(kind, scope), enabled });

export const useGenres = (scope?: ReferentialScope, enabled?: boolean) => useValues('genres', scope, enabled);
/** Series and book tags together. */
export const useTags = (scope?: ReferentialScope, enabled?: boolean) => useValues('tags', scope, enabled);
export const useSeriesTags = (scope?: ReferentialScope, enabled?: boolean) => useValues('seriesTags', scope, enabled);
export const useBookTags = (scope: BookTagScope = {}, enabled = true) =>
  useQuery({ ...referentialQueries.bookTags(scope), enabled });
export const usePublishers = (scope?: ReferentialScope, enabled?: boolean) => useValues('publishers', scope, enabled);
/** BCP 47 language tags. */
export const useLanguages = (scope?: ReferentialScope, enabled?: boolean) => useValues('languages', scope, enabled);
/** Age ratings as strings of integers. */
export const useAgeRatings = (scope?: ReferentialScope, enabled?: boolean) => useValues('ageRatings', scope, enabled);
/** Series release dates (`yyyy-MM-dd`); see releaseYears(). */
export const useReleaseDates = (scope?: ReferentialScope, enabled?: boolean) =>
  useValues('releaseDates', scope, enabled);
export const useSharingLabels = (scope?: ReferentialScope, enabled?: boolean) =>
  useValues('sharingLabels', scope, enabled);
/** Authors matching a search, optionally of one role (`GET /api/v2/authors`). */
export const useAuthors = (search: AuthorSearch, enabled = true) =>
  useQuery({ ...referentialQueries.authors(search), enabled });
export const useAuthorNames = (search: string, enabled = true) =>
  useQuery({ ...referentialQueries.authorNames(search), enabled });
export const useAuthorRoles = () => useQuery(referentialQueries.authorRoles());
