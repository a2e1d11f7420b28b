import type { AuthorMatch, ReadStatus } from '../../api/books';
import type { SeriesCondition, SeriesStatus } from '../../api/series';
import { letterPrefixes, ALL, LATIN_GROUPS, type LetterGroup } from '../../components/browse/AlphabeticalNav';
import { isAllOf, parseToken, type FilterState, type SortOption } from '../../components/browse/filters';

/** The author roles with a filter panel each (ui.md §4.1). */
export const AUTHOR_ROLES = [
  'writer',
  'penciller',
  'inker',
  'colorist',
  'letterer',
  'cover',
  'editor',
  'translator',
] as const;

/** Every filter key of the series browse, as they appear in the URL. */
export const SERIES_FILTER_KEYS = [
  'readStatus',
  'complete',
  'oneShot',
  'deleted',
  'status',
  'genre',
  'tag',
  'publisher',
  'language',
  'ageRating',
  'releaseYear',
  ...AUTHOR_ROLES,
  'sharingLabel',
] as const;
export type SeriesFilterKey = (typeof SERIES_FILTER_KEYS)[number];

/** Sort properties of the series browse (ui.md §4.1). */
export const SERIES_SORT_KEYS = [
  'metadata.titleSort',
  'createdDate',
  'lastModifiedDate',
  'readDate',
  'booksMetadata.releaseDate',
  'name',
  'booksCount',
  'random',
] as const;
export const DEFAULT_SERIES_SORT = { key: 'metadata.titleSort', order: 'asc' } as const;

export function seriesSortOptions(t: (key: string) => string): SortOption[] {
  return SERIES_SORT_KEYS.map((key) => ({ key, label: t(`library.sort.${key.replace('.', '_')}`) }));
}

/** What a series card's sub-line shows under a sort: the date sorted by, else the book count. */
export function seriesCardLine(sortKey: string): 'releaseDate' | 'created' | 'lastModified' | 'books' {
  if (sortKey === 'booksMetadata.releaseDate') return 'releaseDate';
  if (sortKey === 'createdDate') return 'created';
  if (sortKey === 'lastModifiedDate') return 'lastModified';
  return 'books';
}

type Op = 'is' | 'isNot';
const eqOp = (operator: string): Op => (operator === 'isNot' ? 'isNot' : 'is');
const boolOp = (operator: string) => ({
  operator: operator === 'isFalse' ? ('isFalse' as const) : ('isTrue' as const),
});
const nullOp = (operator: string) => (operator === 'isNull' ? ('isNull' as const) : ('isNotNull' as const));
const isNullish = (operator: string) => operator === 'isNull' || operator === 'isNotNull';

/** A year in UTC noon bounds: the server compares dates strictly, so these bracket exactly that year. */
function yearCondition(year: number, exclude: boolean): SeriesCondition {
  const after = { releaseDate: { operator: 'after' as const, dateTime: `${year - 1}-12-31T12:00:00Z` } };
  const before = { releaseDate: { operator: 'before' as const, dateTime: `${year + 1}-01-01T12:00:00Z` } };
  if (!exclude) return { allOf: [after, before] };
  return {
    anyOf: [
      { releaseDate: { operator: 'before', dateTime: `${year}-01-01T12:00:00Z` } },
      { releaseDate: { operator: 'after', dateTime: `${year}-12-31T12:00:00Z` } },
      { releaseDate: { operator: 'isNull' } },
    ],
  };
}

/** One token of one filter as a search condition (api.md §5.1); undefined for a malformed token. */
export function tokenCondition(key: string, raw: string): SeriesCondition | undefined {
  const { operator, value } = parseToken(raw);
  switch (key) {
    case 'readStatus':
      return value ? { readStatus: { operator: eqOp(operator), value: value as ReadStatus } } : undefined;
    case 'complete':
      return { complete: boolOp(operator) };
    case 'oneShot':
      return { oneShot: boolOp(operator) };
    case 'deleted':
      return { deleted: boolOp(operator) };
    case 'status':
      return value ? { seriesStatus: { operator: eqOp(operator), value: value as SeriesStatus } } : undefined;
    case 'genre':
    case 'tag':
    case 'sharingLabel': {
      const op = isNullish(operator)
        ? { operator: nullOp(operator) }
        : value !== undefined
          ? { operator: eqOp(operator), value }
          : undefined;
      if (!op) return undefined;
      return key === 'genre' ? { genre: op } : key === 'tag' ? { tag: op } : { sharingLabel: op };
    }
    case 'publisher':
    case 'language': {
      // No null form: "any" is "not empty", "none" is "empty".
      const op = isNullish(operator)
        ? { operator: operator === 'isNull' ? ('is' as const) : ('isNot' as const), value: '' }
        : value !== undefined
          ? { operator: eqOp(operator), value }
          : undefined;
      if (!op) return undefined;
      return key === 'publisher' ? { publisher: op } : { language: op };
    }
    case 'ageRating': {
      if (isNullish(operator)) return { ageRating: { operator: nullOp(operator) } };
      const n = Number(value);
      return Number.isInteger(n) ? { ageRating: { operator: eqOp(operator), value: n } } : undefined;
    }
    case 'releaseYear': {
      if (isNullish(operator)) return { releaseDate: { operator: nullOp(operator) } };
      const year = Number(value);
      return Number.isInteger(year) ? yearCondition(year, operator === 'isNot') : undefined;
    }
    default:
      if ((AUTHOR_ROLES as readonly string[]).includes(key)) {
        // "Any" author of a role: there is one (is {role}); "none": there is none (isNot {role}).
        if (isNullish(operator))
          return {
            author: { operator: operator === 'isNull' ? 'isNot' : 'is', value: { role: key } satisfies AuthorMatch },
          };
        return value !== undefined
          ? { author: { operator: eqOp(operator), value: { name: value, role: key } } }
          : undefined;
      }
      return undefined;
  }
}

/**
 * The filters as one condition: tokens of a group are ORed (ANDed for a group in "all of" mode; read status is
 * always ORed), groups are ANDed.
 */
export function seriesFilterCondition(state: FilterState): SeriesCondition | undefined {
  const groups: SeriesCondition[] = [];
  for (const key of SERIES_FILTER_KEYS) {
    const conditions = (state[key] ?? [])
      .map((tok) => tokenCondition(key, tok))
      .filter((c): c is SeriesCondition => !!c);
    if (!conditions.length) continue;
    if (conditions.length === 1) groups.push(conditions[0]!);
    else groups.push(key !== 'readStatus' && isAllOf(state, key) ? { allOf: conditions } : { anyOf: conditions });
  }
  if (!groups.length) return undefined;
  return groups.length === 1 ? groups[0] : { allOf: groups };
}

/** The alphabetical navigation's condition: starts with the letter, or (for `#`) with none of the letters. */
export function letterCondition(
  symbol: string,
  groups: readonly LetterGroup[] = LATIN_GROUPS,
): SeriesCondition | undefined {
  if (!symbol || symbol === ALL) return undefined;
  const prefixes = letterPrefixes(symbol, groups);
  if (!prefixes.length) return undefined;
  if (symbol === '#')
    return { allOf: prefixes.map((value) => ({ titleSort: { operator: 'doesNotBeginWith', value } })) };
  return { anyOf: prefixes.map((value) => ({ titleSort: { operator: 'beginsWith', value } })) };
}

/** A language tag's name in the interface language ("English (en)"), or the tag itself. */
export function languageName(tag: string, locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}
