import type { MediaProfile, MediaStatus } from '@quire/api';
import type { BookCondition, ReadStatus } from '../../api/books';
import type { BookCardLine } from '../../components/browse/BookCard';
import { isAllOf, parseToken, type FilterState } from '../../components/browse/filters';
import { AUTHOR_ROLES } from './detail/format';

/**
 * Book filters as search conditions, for the book grid of a series page and a library's Books tab. Filters use the
 * browse screens' token form (components/browse/filters.ts): `readStatus=is:UNREAD`, `deleted=isTrue`,
 * `oneShot=isTrue`, `mediaProfile=is:EPUB`, `mediaStatus=is:ERROR`, `tag=is:x` or `tag=isNot:x` (any or all of, per
 * `allOf=tag`), and one key per author role (`writer=is:Jane Doe`).
 *
 * A series page keeps filters, sort and page in the URL only (ui.md §5), so a link can carry them (a book page's
 * author and tag chips) and a reload keeps them. These are its keys and sorts.
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

export const DEFAULT_BOOK_SORT = { key: 'metadata.numberSort', order: 'asc' } as const;

/** The card's sub-line follows the sort, so the value sorted on is visible (ui.md §2.1). */
const CARD_LINES: Record<string, BookCardLine> = {
  createdDate: 'created',
  lastModifiedDate: 'lastModified',
  'metadata.releaseDate': 'releaseDate',
  'readProgress.readDate': 'readDate',
  fileSize: 'fileSize',
};
export const bookCardLine = (sortKey: string): BookCardLine => CARD_LINES[sortKey] ?? 'pages';

export function parsePage(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

const eq = (operator: string): 'is' | 'isNot' => (operator === 'isNot' ? 'isNot' : 'is');

/**
 * One token of one filter as a book condition (api.md §5.1); undefined for a malformed token. The series page and the
 * library's Books tab share these keys; `oneShot` and `mediaStatus` are the tab's.
 */
export function bookTokenCondition(key: string, raw: string): BookCondition | undefined {
  const { operator, value } = parseToken(raw);
  switch (key) {
    case 'readStatus':
      return value ? { readStatus: { operator: eq(operator), value: value as ReadStatus } } : undefined;
    case 'deleted':
      return { deleted: { operator: operator === 'isFalse' ? 'isFalse' : 'isTrue' } };
    case 'oneShot':
      return { oneShot: { operator: operator === 'isFalse' ? 'isFalse' : 'isTrue' } };
    case 'mediaStatus':
      return value ? { mediaStatus: { operator: eq(operator), value: value as MediaStatus } } : undefined;
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
 * The filters of `keys`, one condition per group: values of a group are ORed (ANDed for a group in "all of" mode; read
 * status always ORed). The caller ANDs the groups.
 */
export function bookFilterGroups(keys: readonly string[], state: FilterState): BookCondition[] {
  const groups: BookCondition[] = [];
  for (const key of keys) {
    const conditions = (state[key] ?? [])
      .map((tok) => bookTokenCondition(key, tok))
      .filter((c): c is BookCondition => !!c);
    if (!conditions.length) continue;
    if (conditions.length === 1) groups.push(conditions[0]!);
    else groups.push(key !== 'readStatus' && isAllOf(state, key) ? { allOf: conditions } : { anyOf: conditions });
  }
  return groups;
}

/** The series' books under the filters, all within the series. */
export function seriesBooksCondition(seriesId: string, state: FilterState): BookCondition {
  const all: BookCondition[] = [
    { seriesId: { operator: 'is', value: seriesId } },
    ...bookFilterGroups(BOOK_FILTER_KEYS, state),
  ];
  return all.length === 1 ? all[0]! : { allOf: all };
}
