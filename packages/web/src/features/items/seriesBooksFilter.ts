import type { MediaProfile } from '@quire/api';
import type { BookCondition, ReadStatus } from '../../api/books';
import { isAllOf, parseToken, type FilterState } from '../../components/browse/filters';
import { AUTHOR_ROLES } from './detail/format';

/**
 * The book grid of a series page. Filters, sort and page live in the URL only (ui.md §5), so a link can carry them
 * (a book page's author and tag chips) and a reload keeps them. Filters use the browse screens' token form
 * (components/browse/filters.ts): `readStatus=is:UNREAD`, `deleted=isTrue`, `mediaProfile=is:EPUB`, `tag=is:x` or
 * `tag=isNot:x` (any or all of, per `allOf=tag`), and one key per author role (`writer=is:Jane Doe`).
 */
export const BOOK_FILTER_KEYS = ['readStatus', 'deleted', 'mediaProfile', 'tag', ...AUTHOR_ROLES] as const;

export const BOOK_SORT_KEYS = [
  'metadata.numberSort',
  'createdDate',
  'lastModifiedDate',
  'metadata.releaseDate',
  'readProgress.readDate',
  'fileSize',
  'name',
  'media.pagesCount',
] as const;
export type BookSortKey = (typeof BOOK_SORT_KEYS)[number];

export const DEFAULT_BOOK_SORT = { key: 'metadata.numberSort', order: 'asc' } as const;

export function parsePage(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

const eq = (operator: string): 'is' | 'isNot' => (operator === 'isNot' ? 'isNot' : 'is');

/** One token of one filter as a book condition; undefined for a malformed token. */
export function bookTokenCondition(key: string, raw: string): BookCondition | undefined {
  const { operator, value } = parseToken(raw);
  switch (key) {
    case 'readStatus':
      return value ? { readStatus: { operator: eq(operator), value: value as ReadStatus } } : undefined;
    case 'deleted':
      return { deleted: { operator: operator === 'isFalse' ? 'isFalse' : 'isTrue' } };
    case 'mediaProfile':
      return value ? { mediaProfile: { operator: eq(operator), value: value as MediaProfile } } : undefined;
    case 'tag':
      if (operator === 'isNull' || operator === 'isNotNull') return { tag: { operator } };
      return value !== undefined ? { tag: { operator: eq(operator), value } } : undefined;
    default:
      if (!(AUTHOR_ROLES as readonly string[]).includes(key)) return undefined;
      if (operator === 'isNull' || operator === 'isNotNull')
        return { author: { operator: operator === 'isNull' ? 'isNot' : 'is', value: { role: key } } };
      return value !== undefined
        ? { author: { operator: eq(operator), value: { name: value, role: key } } }
        : undefined;
  }
}

/**
 * The series' books under the filters: values of a group are ORed (ANDed for a group in "all of" mode; read status
 * always ORed), groups ANDed, all within the series.
 */
export function seriesBooksCondition(seriesId: string, state: FilterState): BookCondition {
  const all: BookCondition[] = [{ seriesId: { operator: 'is', value: seriesId } }];
  for (const key of BOOK_FILTER_KEYS) {
    const conditions = (state[key] ?? [])
      .map((tok) => bookTokenCondition(key, tok))
      .filter((c): c is BookCondition => !!c);
    if (!conditions.length) continue;
    if (conditions.length === 1) all.push(conditions[0]!);
    else all.push(key !== 'readStatus' && isAllOf(state, key) ? { allOf: conditions } : { anyOf: conditions });
  }
  return all.length === 1 ? all[0]! : { allOf: all };
}
