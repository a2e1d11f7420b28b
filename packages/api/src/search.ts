import { Type, type Static, type TSchema } from 'typebox';
import { PageDto, type Page } from './common.js';
import { SeriesDto } from './series.js';
import { SERIES_STATUSES } from './constants.js';

/**
 * Series and book search (api.md §5): the condition trees of `POST /api/v1/series/list` and `/books/list`, and the
 * query parameters of every list endpoint. A condition is an object with exactly one key naming its kind; an
 * operator is an object with an `operator` discriminator (komga-openapi.json `SearchCondition*`, `SearchOperator*`).
 */

export const READ_STATUSES = ['UNREAD', 'READ', 'IN_PROGRESS'] as const;
export type ReadStatus = (typeof READ_STATUSES)[number];
export const POSTER_TYPES = ['GENERATED', 'SIDECAR', 'USER_UPLOADED'] as const;
export type PosterType = (typeof POSTER_TYPES)[number];
const SEARCH_MEDIA_STATUSES = ['UNKNOWN', 'ERROR', 'READY', 'UNSUPPORTED', 'OUTDATED'] as const;
const SEARCH_MEDIA_PROFILES = ['DIVINA', 'PDF', 'EPUB'] as const;

const literals = <T extends string[]>(values: readonly [...T]) => Type.Enum(values);
const op = <O extends string, T extends TSchema>(operator: O, value: T) =>
  Type.Object({ operator: Type.Literal(operator), value });
const bare = <O extends string>(operator: O) => Type.Object({ operator: Type.Literal(operator) });

const equality = <T extends TSchema>(value: T) => Type.Union([op('is', value), op('isNot', value)]);

export const SearchOperatorEqualityString = equality(Type.String());
export const SearchOperatorEqualityNullableString = Type.Union([
  op('is', Type.String()),
  op('isNot', Type.String()),
  bare('isNull'),
  bare('isNotNull'),
]);
export const SearchOperatorString = Type.Union([
  op('is', Type.String()),
  op('isNot', Type.String()),
  op('contains', Type.String()),
  op('doesNotContain', Type.String()),
  op('beginsWith', Type.String()),
  op('doesNotBeginWith', Type.String()),
  op('endsWith', Type.String()),
  op('doesNotEndWith', Type.String()),
]);
const numeric = <T extends TSchema>(value: T) =>
  [op('is', value), op('isNot', value), op('greaterThan', value), op('lessThan', value)] as const;
/** greaterThan and lessThan include the bound. */
export const SearchOperatorNumericFloat = Type.Union([...numeric(Type.Number())]);
export const SearchOperatorNumericNullableInteger = Type.Union([
  ...numeric(Type.Integer()),
  bare('isNull'),
  bare('isNotNull'),
]);
export const SearchOperatorDate = Type.Union([
  Type.Object({ operator: Type.Literal('before'), dateTime: Type.String({ description: 'ISO-8601 date-time' }) }),
  Type.Object({ operator: Type.Literal('after'), dateTime: Type.String({ description: 'ISO-8601 date-time' }) }),
  Type.Object({ operator: Type.Literal('isInTheLast'), duration: Type.String({ description: 'ISO-8601 duration' }) }),
  Type.Object({
    operator: Type.Literal('isNotInTheLast'),
    duration: Type.String({ description: 'ISO-8601 duration' }),
  }),
  bare('isNull'),
  bare('isNotNull'),
]);
export const SearchOperatorBoolean = Type.Union([bare('isTrue'), bare('isFalse')]);
export const AuthorMatch = Type.Object({ name: Type.Optional(Type.String()), role: Type.Optional(Type.String()) });
export const PosterMatch = Type.Object({
  type: Type.Optional(literals(POSTER_TYPES)),
  selected: Type.Optional(Type.Boolean()),
});

const one = <K extends string, T extends TSchema>(key: K, operator: T) =>
  Type.Object({ [key]: operator } as Record<K, T>);

const conditionOf = {
  libraryId: one('libraryId', SearchOperatorEqualityString),
  collectionId: one('collectionId', SearchOperatorEqualityString),
  readListId: one('readListId', SearchOperatorEqualityString),
  seriesId: one('seriesId', SearchOperatorEqualityString),
  deleted: one('deleted', SearchOperatorBoolean),
  complete: one('complete', SearchOperatorBoolean),
  oneShot: one('oneShot', SearchOperatorBoolean),
  title: one('title', SearchOperatorString),
  titleSort: one('titleSort', SearchOperatorString),
  releaseDate: one('releaseDate', SearchOperatorDate),
  numberSort: one('numberSort', SearchOperatorNumericFloat),
  tag: one('tag', SearchOperatorEqualityNullableString),
  sharingLabel: one('sharingLabel', SearchOperatorEqualityNullableString),
  genre: one('genre', SearchOperatorEqualityNullableString),
  publisher: one('publisher', SearchOperatorEqualityString),
  language: one('language', SearchOperatorEqualityString),
  ageRating: one('ageRating', SearchOperatorNumericNullableInteger),
  readStatus: one('readStatus', equality(literals(READ_STATUSES))),
  mediaStatus: one('mediaStatus', equality(literals(SEARCH_MEDIA_STATUSES))),
  seriesStatus: one('seriesStatus', equality(literals(SERIES_STATUSES))),
  mediaProfile: one('mediaProfile', equality(literals(SEARCH_MEDIA_PROFILES))),
  author: one('author', equality(AuthorMatch)),
  poster: one('poster', equality(PosterMatch)),
};

/** Condition kinds of series searches (besides allOf / anyOf). */
export const SERIES_CONDITION_KINDS = [
  'libraryId',
  'collectionId',
  'deleted',
  'complete',
  'oneShot',
  'title',
  'titleSort',
  'releaseDate',
  'tag',
  'sharingLabel',
  'publisher',
  'language',
  'genre',
  'ageRating',
  'readStatus',
  'seriesStatus',
  'author',
] as const;
/** Condition kinds of book searches (besides allOf / anyOf). */
export const BOOK_CONDITION_KINDS = [
  'libraryId',
  'readListId',
  'seriesId',
  'deleted',
  'oneShot',
  'title',
  'releaseDate',
  'tag',
  'numberSort',
  'readStatus',
  'mediaStatus',
  'mediaProfile',
  'author',
  'poster',
] as const;

export const SearchConditionSeries = Type.Cyclic(
  {
    SearchConditionSeries: Type.Union([
      Type.Object({ allOf: Type.Array(Type.Ref('SearchConditionSeries')) }),
      Type.Object({ anyOf: Type.Array(Type.Ref('SearchConditionSeries')) }),
      conditionOf.libraryId,
      conditionOf.collectionId,
      conditionOf.deleted,
      conditionOf.complete,
      conditionOf.oneShot,
      conditionOf.title,
      conditionOf.titleSort,
      conditionOf.releaseDate,
      conditionOf.tag,
      conditionOf.sharingLabel,
      conditionOf.publisher,
      conditionOf.language,
      conditionOf.genre,
      conditionOf.ageRating,
      conditionOf.readStatus,
      conditionOf.seriesStatus,
      conditionOf.author,
    ]),
  },
  'SearchConditionSeries',
);
export type SearchConditionSeries = Static<typeof SearchConditionSeries>;

export const SearchConditionBook = Type.Cyclic(
  {
    SearchConditionBook: Type.Union([
      Type.Object({ allOf: Type.Array(Type.Ref('SearchConditionBook')) }),
      Type.Object({ anyOf: Type.Array(Type.Ref('SearchConditionBook')) }),
      conditionOf.libraryId,
      conditionOf.readListId,
      conditionOf.seriesId,
      conditionOf.deleted,
      conditionOf.oneShot,
      conditionOf.title,
      conditionOf.releaseDate,
      conditionOf.tag,
      conditionOf.numberSort,
      conditionOf.readStatus,
      conditionOf.mediaStatus,
      conditionOf.mediaProfile,
      conditionOf.author,
      conditionOf.poster,
    ]),
  },
  'SearchConditionBook',
);
export type SearchConditionBook = Static<typeof SearchConditionBook>;

export const SeriesSearch = Type.Object({
  condition: Type.Optional(SearchConditionSeries),
  fullTextSearch: Type.Optional(Type.String()),
});
export type SeriesSearch = Static<typeof SeriesSearch>;

export const BookSearch = Type.Object({
  condition: Type.Optional(SearchConditionBook),
  fullTextSearch: Type.Optional(Type.String()),
});
export type BookSearch = Static<typeof BookSearch>;

/** The operator payloads, as the server reads them once a body is checked (one discriminated type per family). */
export type EqualityOperator<T> = { operator: 'is' | 'isNot'; value: T };
export type NullableOperator<T> = EqualityOperator<T> | { operator: 'isNull' | 'isNotNull' };
export type StringOperator = {
  operator:
    'is' | 'isNot' | 'contains' | 'doesNotContain' | 'beginsWith' | 'doesNotBeginWith' | 'endsWith' | 'doesNotEndWith';
  value: string;
};
export type NumericOperator = { operator: 'is' | 'isNot' | 'greaterThan' | 'lessThan'; value: number };
export type NullableNumericOperator = NumericOperator | { operator: 'isNull' | 'isNotNull' };
export type DateOperator =
  | { operator: 'before' | 'after'; dateTime: string }
  | { operator: 'isInTheLast' | 'isNotInTheLast'; duration: string }
  | { operator: 'isNull' | 'isNotNull' };
export type BooleanOperator = { operator: 'isTrue' | 'isFalse' };

export const PageSeriesDto = PageDto(SeriesDto);
export type PageSeriesDto = Page<SeriesDto>;

/** `POST /series/list/alphabetical-groups`: series count per lower-cased first character of the sort title. */
export const GroupCountDto = Type.Object({ group: Type.String(), count: Type.Integer() });
export type GroupCountDto = Static<typeof GroupCountDto>;

// ---- query parameters (api.md §1.4, §1.5, §5.3) ----

const list = <T extends TSchema>(item: T) => Type.Optional(Type.Array(item));
const flag = Type.Optional(Type.Boolean());
const paging = {
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
  unpaged: flag,
};
const sortable = { ...paging, sort: list(Type.String({ description: '`property[,asc|desc]`' })) };

/** Paging of list endpoints (`sort` where the endpoint accepts one). */
export const ListPagingQuery = Type.Object(sortable);
export type ListPagingQuery = Static<typeof ListPagingQuery>;

const seriesFilters = {
  library_id: list(Type.String()),
  status: list(literals(SERIES_STATUSES)),
  read_status: list(literals(READ_STATUSES)),
  publisher: list(Type.String()),
  language: list(Type.String()),
  genre: list(Type.String()),
  tag: list(Type.String()),
  /** A number, or anything else (e.g. `None`) for "no age rating". */
  age_rating: list(Type.String()),
  release_year: list(Type.String()),
  deleted: flag,
  complete: flag,
  /** `name,role`, split on the last comma. */
  author: list(Type.String()),
};

/** `GET /api/v1/series` and `/series/alphabetical-groups` (deprecated filters). */
export const SeriesListQuery = Type.Object({
  ...sortable,
  ...seriesFilters,
  search: Type.Optional(Type.String()),
  /** `regex,TITLE|TITLE_SORT`. */
  search_regex: Type.Optional(Type.String()),
  collection_id: list(Type.String()),
  sharing_label: list(Type.String()),
  oneshot: flag,
});
export type SeriesListQuery = Static<typeof SeriesListQuery>;

/** `GET /api/v1/series/latest`, `/new`, `/updated`. */
export const SeriesRecentQuery = Type.Object({
  ...paging,
  library_id: list(Type.String()),
  deleted: flag,
  oneshot: flag,
});
export type SeriesRecentQuery = Static<typeof SeriesRecentQuery>;

/** `GET /api/v1/collections/{id}/series`. */
export const CollectionSeriesQuery = Type.Object({ ...paging, ...seriesFilters });
export type CollectionSeriesQuery = Static<typeof CollectionSeriesQuery>;

/** `GET /api/v1/books` (deprecated filters). */
export const BookListQuery = Type.Object({
  ...sortable,
  search: Type.Optional(Type.String()),
  library_id: list(Type.String()),
  media_status: list(literals(SEARCH_MEDIA_STATUSES)),
  read_status: list(literals(READ_STATUSES)),
  /** `yyyy-MM-dd`: books released strictly after that day. */
  released_after: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  tag: list(Type.String()),
  /**
   * Not in Komga's contract (Komga ignores it and answers deleted books too), but Mihon sends `deleted=false`
   * meaning "live books only", as on every other list.
   */
  deleted: flag,
});
export type BookListQuery = Static<typeof BookListQuery>;

/** `GET /api/v1/books/latest`. */
export const BookLatestQuery = Type.Object(paging);
export type BookLatestQuery = Static<typeof BookLatestQuery>;

/** `GET /api/v1/books/ondeck`. */
export const BookOnDeckQuery = Type.Object({
  page: Type.Optional(Type.Integer()),
  size: Type.Optional(Type.Integer()),
  library_id: list(Type.String()),
});
export type BookOnDeckQuery = Static<typeof BookOnDeckQuery>;

/** `GET /api/v1/series/{seriesId}/books`. */
export const SeriesBooksQuery = Type.Object({
  ...sortable,
  media_status: list(literals(SEARCH_MEDIA_STATUSES)),
  read_status: list(literals(READ_STATUSES)),
  tag: list(Type.String()),
  deleted: flag,
  author: list(Type.String()),
});
export type SeriesBooksQuery = Static<typeof SeriesBooksQuery>;

/** `GET /api/v1/readlists/{id}/books`. */
export const ReadListBooksQuery = Type.Object({
  ...paging,
  library_id: list(Type.String()),
  read_status: list(literals(READ_STATUSES)),
  tag: list(Type.String()),
  media_status: list(literals(SEARCH_MEDIA_STATUSES)),
  deleted: flag,
  author: list(Type.String()),
});
export type ReadListBooksQuery = Static<typeof ReadListBooksQuery>;

/** A collection or read list, by id, whose members are listed. */
export const MemberListParams = Type.Object({ id: Type.String() });
export type MemberListParams = Static<typeof MemberListParams>;
export const ReadListBookParams = Type.Object({ id: Type.String(), bookId: Type.String() });
export type ReadListBookParams = Static<typeof ReadListBookParams>;
