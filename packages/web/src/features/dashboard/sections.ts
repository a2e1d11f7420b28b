import { keepPreviousData, queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { BookDto, Page, SeriesDto } from '@quire/api';
import {
  allOf,
  bookKeys,
  fetchBookList,
  fetchOnDeck,
  infiniteList,
  inLibraries,
  type BookCondition,
  type PageParams,
} from '../../api/books';
import { fetchRecentSeries, seriesKeys } from '../../api/series';
import type { BookCardLine } from '../../components/browse/BookCard';
import type { SeriesCardLine } from '../../components/browse/SeriesCard';

/** The dashboard's sections in their order (ui.md §3), as they appear in "see all" URLs. */
export const SECTION_IDS = [
  'keep-reading',
  'on-deck',
  'recently-released-books',
  'recently-added-books',
  'recently-added-series',
  'recently-updated-series',
  'recently-read-books',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export const isSectionId = (value: string | undefined): value is SectionId =>
  (SECTION_IDS as readonly string[]).includes(value ?? '');

type Fetch<T> = (libraryIds: readonly string[] | undefined, paging: PageParams) => Promise<Page<T>>;

export type SectionDef =
  | { id: SectionId; kind: 'book'; line: BookCardLine; fetch: Fetch<BookDto> }
  | { id: SectionId; kind: 'series'; line: SeriesCardLine; fetch: Fetch<SeriesDto> };

/** A month back from today, at the start of the day (UTC): stable through the day, so the query key is too. */
function aMonthAgo(): string {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - 1);
  return `${d.toISOString().slice(0, 10)}T00:00:00Z`;
}

const books =
  (condition: () => BookCondition | undefined, sort: string): Fetch<BookDto> =>
  (libraryIds, paging) =>
    fetchBookList({
      condition: allOf<BookCondition>([inLibraries(libraryIds), condition()]),
      sort: [sort],
      ...paging,
    });

const SECTIONS: Record<SectionId, SectionDef> = {
  'keep-reading': {
    id: 'keep-reading',
    kind: 'book',
    line: 'pages',
    fetch: books(() => ({ readStatus: { operator: 'is', value: 'IN_PROGRESS' } }), 'readProgress.readDate,desc'),
  },
  'on-deck': {
    id: 'on-deck',
    kind: 'book',
    line: 'pages',
    fetch: (libraryIds, paging) => fetchOnDeck({ libraryIds, ...paging }),
  },
  'recently-released-books': {
    id: 'recently-released-books',
    kind: 'book',
    line: 'releaseDate',
    fetch: books(() => ({ releaseDate: { operator: 'after', dateTime: aMonthAgo() } }), 'metadata.releaseDate,desc'),
  },
  'recently-added-books': {
    id: 'recently-added-books',
    kind: 'book',
    line: 'created',
    fetch: books(() => undefined, 'createdDate,desc'),
  },
  'recently-added-series': {
    id: 'recently-added-series',
    kind: 'series',
    line: 'created',
    fetch: (libraryIds, paging) => fetchRecentSeries('new', { libraryIds, oneshot: false, ...paging }),
  },
  'recently-updated-series': {
    id: 'recently-updated-series',
    kind: 'series',
    line: 'lastModified',
    fetch: (libraryIds, paging) => fetchRecentSeries('updated', { libraryIds, oneshot: false, ...paging }),
  },
  'recently-read-books': {
    id: 'recently-read-books',
    kind: 'book',
    line: 'readDate',
    fetch: books(() => ({ readStatus: { operator: 'is', value: 'READ' } }), 'readProgress.readDate,desc'),
  },
};

export const sectionDef = (id: SectionId) => SECTIONS[id];

/** Under the entity's prefix, so that its live events refresh the section. */
const sectionKey = (def: SectionDef, libraryIds: readonly string[] | undefined): QueryKey => [
  ...(def.kind === 'book' ? bookKeys.all : seriesKeys.all),
  'section',
  def.id,
  libraryIds ?? null,
];

/**
 * A section page after page, for its horizontal row. Fresh for a few seconds: the rows asked for at start-up
 * ({@link prefetchDashboard}) are not asked for again when the dashboard mounts (live events refresh them anyway).
 */
export function sectionInfinite<T extends BookDto | SeriesDto>(
  def: SectionDef,
  libraryIds: readonly string[] | undefined,
) {
  return infiniteList<T>(
    [...sectionKey(def, libraryIds), 'infinite'],
    (page, size) => (def.fetch as Fetch<T>)(libraryIds, { page, size }),
    { staleTime: 10_000 },
  );
}

/**
 * The dashboard's rows over all libraries, asked for at start-up with the session check instead of once the
 * dashboard's code has loaded and rendered (issue 18). The page's first script (`early/requests.ts`) has usually
 * asked for them already, and for the first row's posters: these queries take its answers.
 */
export async function prefetchDashboard(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    SECTION_IDS.map((id) => queryClient.prefetchInfiniteQuery(sectionInfinite(sectionDef(id), undefined))),
  );
}

/** One numbered page of a section ("see all"). */
export function sectionPage<T extends BookDto | SeriesDto>(
  def: SectionDef,
  libraryIds: readonly string[] | undefined,
  page: number,
  size: number,
) {
  return queryOptions({
    queryKey: [...sectionKey(def, libraryIds), 'page', page, size],
    queryFn: () => (def.fetch as Fetch<T>)(libraryIds, { page, size }),
    placeholderData: keepPreviousData,
  });
}
