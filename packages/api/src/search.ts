import { Type, type Static, type TArray, type TRef, type TSchema } from 'typebox';
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

/** An offset date-time, as Komga's `ZonedDateTime` reads it. */
const DateTime = Type.String({ format: 'date-time', description: 'ISO-8601 date-time with offset' });
/**
 * A `java.time.Duration` text (`PnDTnHnMn.nS`, any letter case): days, hours, minutes and seconds only, so `P1M`
 * (a month) is refused, as Komga refuses it.
 */
const Duration = Type.String({
  pattern:
    '^(?![-+]?[Pp]$)(?!.*[Tt]$)[-+]?[Pp](?:[-+]?\\d+[Dd])?(?:[Tt](?:[-+]?\\d+[Hh])?(?:[-+]?\\d+[Mm])?(?:[-+]?\\d+(?:[.,]\\d+)?[Ss])?)?$',
  description: 'ISO-8601 duration (days, hours, minutes, seconds)',
});

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
  Type.Object({ operator: Type.Literal('before'), dateTime: DateTime }),
  Type.Object({ operator: Type.Literal('after'), dateTime: DateTime }),
  Type.Object({ operator: Type.Literal('isInTheLast'), duration: Duration }),
  Type.Object({ operator: Type.Literal('isNotInTheLast'), duration: Duration }),
  bare('isNull'),
  bare('isNotNull'),
]);
export const SearchOperatorBoolean = Type.Union([bare('isTrue'), bare('isFalse')]);
/** Name and/or role; neither matches every author. `null` is "not given", as Jackson reads it. */
export const AuthorMatch = Type.Object({
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  role: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export const PosterMatch = Type.Object({
  type: Type.Optional(Type.Union([literals(POSTER_TYPES), Type.Null()])),
  selected: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});

/** The operator each condition kind takes (komga-openapi.json `SearchCondition*`). */
const operatorOf = {
  libraryId: SearchOperatorEqualityString,
  collectionId: SearchOperatorEqualityString,
  readListId: SearchOperatorEqualityString,
  seriesId: SearchOperatorEqualityString,
  deleted: SearchOperatorBoolean,
  complete: SearchOperatorBoolean,
  oneShot: SearchOperatorBoolean,
  title: SearchOperatorString,
  titleSort: SearchOperatorString,
  releaseDate: SearchOperatorDate,
  numberSort: SearchOperatorNumericFloat,
  tag: SearchOperatorEqualityNullableString,
  sharingLabel: SearchOperatorEqualityNullableString,
  genre: SearchOperatorEqualityNullableString,
  publisher: SearchOperatorEqualityString,
  language: SearchOperatorEqualityString,
  ageRating: SearchOperatorNumericNullableInteger,
  readStatus: equality(literals(READ_STATUSES)),
  mediaStatus: equality(literals(SEARCH_MEDIA_STATUSES)),
  seriesStatus: equality(literals(SERIES_STATUSES)),
  mediaProfile: equality(literals(SEARCH_MEDIA_PROFILES)),
  author: equality(AuthorMatch),
  poster: equality(PosterMatch),
};
type Kind = keyof typeof operatorOf;

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
] as const satisfies readonly Kind[];
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
] as const satisfies readonly Kind[];

const SERIES_KEYS = ['allOf', 'anyOf', ...SERIES_CONDITION_KINDS];
const BOOK_KEYS = ['allOf', 'anyOf', ...BOOK_CONDITION_KINDS];

/**
 * A member of a condition tree: an object with exactly one key of its grammar (`keys`: allOf, anyOf or a kind), as
 * Jackson deduces Komga's subtype; other keys are ignored. Each member says which keys it must not carry beside its
 * own, so `{title, libraryId}` is refused rather than read as either.
 */
const alone = (key: string, keys: readonly string[]) => ({
  not: { anyOf: keys.filter((k) => k !== key).map((k) => ({ required: [k] })) },
});
const one = <K extends Kind>(kind: K, keys: readonly string[]) =>
  Type.Object({ [kind]: operatorOf[kind] } as { [P in K]: (typeof operatorOf)[P] }, alone(kind, keys));
const group = <G extends 'allOf' | 'anyOf', Name extends string>(key: G, name: Name, keys: readonly string[]) =>
  Type.Object({ [key]: Type.Array(Type.Ref(name)) } as { [P in G]: TArray<TRef<Name>> }, alone(key, keys));

export const SearchConditionSeries = Type.Cyclic(
  {
    SearchConditionSeries: Type.Union([
      group('allOf', 'SearchConditionSeries', SERIES_KEYS),
      group('anyOf', 'SearchConditionSeries', SERIES_KEYS),
      one('libraryId', SERIES_KEYS),
      one('collectionId', SERIES_KEYS),
      one('deleted', SERIES_KEYS),
      one('complete', SERIES_KEYS),
      one('oneShot', SERIES_KEYS),
      one('title', SERIES_KEYS),
      one('titleSort', SERIES_KEYS),
      one('releaseDate', SERIES_KEYS),
      one('tag', SERIES_KEYS),
      one('sharingLabel', SERIES_KEYS),
      one('publisher', SERIES_KEYS),
      one('language', SERIES_KEYS),
      one('genre', SERIES_KEYS),
      one('ageRating', SERIES_KEYS),
      one('readStatus', SERIES_KEYS),
      one('seriesStatus', SERIES_KEYS),
      one('author', SERIES_KEYS),
    ]),
  },
  'SearchConditionSeries',
);
export type SearchConditionSeries = Static<typeof SearchConditionSeries>;

export const SearchConditionBook = Type.Cyclic(
  {
    SearchConditionBook: Type.Union([
      group('allOf', 'SearchConditionBook', BOOK_KEYS),
      group('anyOf', 'SearchConditionBook', BOOK_KEYS),
      one('libraryId', BOOK_KEYS),
      one('readListId', BOOK_KEYS),
      one('seriesId', BOOK_KEYS),
      one('deleted', BOOK_KEYS),
      one('oneShot', BOOK_KEYS),
      one('title', BOOK_KEYS),
      one('releaseDate', BOOK_KEYS),
      one('tag', BOOK_KEYS),
      one('numberSort', BOOK_KEYS),
      one('readStatus', BOOK_KEYS),
      one('mediaStatus', BOOK_KEYS),
      one('mediaProfile', BOOK_KEYS),
      one('author', BOOK_KEYS),
      one('poster', BOOK_KEYS),
    ]),
  },
  'SearchConditionBook',
);
export type SearchConditionBook = Static<typeof SearchConditionBook>;

/** `POST /api/v1/series/list` and `/series/list/alphabetical-groups`. */
export const SeriesSearch = Type.Object({
  condition: Type.Optional(Type.Union([SearchConditionSeries, Type.Null()])),
  fullTextSearch: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type SeriesSearch = Static<typeof SeriesSearch>;

/** `POST /api/v1/books/list`. */
export const BookSearch = Type.Object({
  condition: Type.Optional(Type.Union([SearchConditionBook, Type.Null()])),
  fullTextSearch: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type BookSearch = Static<typeof BookSearch>;

/** The operator payloads, as the server reads them once a body is validated (one type per family). */
export type EqualityOperator<T> = { operator: 'is' | 'isNot'; value: T };
export type StringOperator = Static<typeof SearchOperatorString>;
export type NullableOperator = Static<typeof SearchOperatorEqualityNullableString>;
export type NumericOperator = Static<typeof SearchOperatorNumericFloat>;
export type NullableNumericOperator = Static<typeof SearchOperatorNumericNullableInteger>;
export type DateOperator = Static<typeof SearchOperatorDate>;
export type BooleanOperator = Static<typeof SearchOperatorBoolean>;
export type AuthorMatch = Static<typeof AuthorMatch>;
export type PosterMatch = Static<typeof PosterMatch>;

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

/** The deprecated GET filters of series lists and their alphabetical groups. */
const seriesListFilters = {
  ...seriesFilters,
  search: Type.Optional(Type.String()),
  /** `regex,TITLE|TITLE_SORT`. */
  search_regex: Type.Optional(Type.String()),
  collection_id: list(Type.String()),
  sharing_label: list(Type.String()),
  oneshot: flag,
};

/** `GET /api/v1/series` (deprecated filters). */
export const SeriesListQuery = Type.Object({ ...sortable, ...seriesListFilters });
export type SeriesListQuery = Static<typeof SeriesListQuery>;

/** `GET /api/v1/series/alphabetical-groups` (deprecated filters; no paging: every group is counted). */
export const SeriesGroupsQuery = Type.Object(seriesListFilters);
export type SeriesGroupsQuery = Static<typeof SeriesGroupsQuery>;

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
