import { Type, type Static, type TSchema, type TUnknown } from 'typebox';

/** Spring's serialised `PageImpl`, as Komga answers every paged list (api.md §1.4). */
export const SortDto = Type.Object({
  empty: Type.Boolean(),
  sorted: Type.Boolean(),
  unsorted: Type.Boolean(),
});
export type SortDto = Static<typeof SortDto>;

export const PageableDto = Type.Object({
  pageNumber: Type.Integer(),
  pageSize: Type.Integer(),
  offset: Type.Integer(),
  paged: Type.Boolean(),
  unpaged: Type.Boolean(),
  sort: SortDto,
});

export const PageDto = <T extends TSchema>(item: T) =>
  Type.Object({
    content: Type.Array(item),
    pageable: PageableDto,
    totalElements: Type.Integer(),
    totalPages: Type.Integer(),
    last: Type.Boolean(),
    first: Type.Boolean(),
    size: Type.Integer(),
    number: Type.Integer(),
    numberOfElements: Type.Integer(),
    empty: Type.Boolean(),
    sort: SortDto,
  });

/** A page of `T`, typed from `PageDto` so that the schema and the type cannot drift apart. */
export type Page<T> = Omit<Static<ReturnType<typeof PageDto<TUnknown>>>, 'content'> & { content: T[] };

/** Spring Boot's error JSON (api.md §1.6, shape 1). */
export const ErrorBodyDto = Type.Object({
  timestamp: Type.String(),
  status: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  path: Type.String(),
});
export type ErrorBodyDto = Static<typeof ErrorBodyDto>;

/** Bean-validation failure body (api.md §1.6, shape 2). */
export const ViolationsDto = Type.Object({
  violations: Type.Array(Type.Object({ fieldName: Type.String(), message: Type.String() })),
});
export type ViolationsDto = Static<typeof ViolationsDto>;
