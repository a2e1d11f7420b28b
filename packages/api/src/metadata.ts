import { Type, type Static, type TSchema } from 'typebox';
import { READING_DIRECTIONS, SERIES_STATUSES } from './constants.js';

/**
 * Metadata edits (api.md §4.1-4.2; komga-openapi.json BookMetadataUpdateDto, SeriesMetadataUpdateDto).
 *
 * Every field is optional: an omitted field is left as it is. Komga accepts `null` everywhere and gives it one
 * of two meanings per field (engine.md §6.2): "clear" (summary, releaseDate, authors, tags, isbn, links of a
 * book; readingDirection, ageRating, totalBookCount and the lists of a series) or "unchanged" (the rest,
 * locks included). Setting a value does not lock it: clients send `xxxLock: true` themselves, as Komga's web
 * client does when a field is edited.
 *
 * Value rules that need a message (ISBN checksum, URL scheme, BCP 47, duplicates, ranges) are checked by the
 * server, which answers Komga's `{violations: [...]}` body; these schemas only fix the JSON types.
 */

/** A JSON-schema type array rather than `anyOf`, so type coercion cannot turn a value into null. */
const nullable = <T extends TSchema & { type: string }>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });

/** Enum constants are accepted in any letter case (api.md §1.2): the server binds them before validation. */
const nullableEnum = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null] });

/**
 * `uniqueItems` is left out on purpose: Komga reads these arrays into sets, so a repeated value is dropped,
 * not refused.
 */
const nullableStrings = () => nullable(Type.Array(Type.String()));
const optionalLock = () => Type.Optional(nullable(Type.Boolean()));

export const AuthorUpdateDto = Type.Object({ name: Type.String(), role: Type.String() });
export type AuthorUpdateDto = Static<typeof AuthorUpdateDto>;

export const WebLinkUpdateDto = Type.Object({ label: Type.String(), url: Type.String() });
export type WebLinkUpdateDto = Static<typeof WebLinkUpdateDto>;

export const AlternateTitleUpdateDto = Type.Object({ label: Type.String(), title: Type.String() });
export type AlternateTitleUpdateDto = Static<typeof AlternateTitleUpdateDto>;

export const BookMetadataUpdateDto = Type.Object({
  /** Not blank; null = unchanged. */
  title: Type.Optional(nullable(Type.String())),
  titleLock: optionalLock(),
  /** null = "". */
  summary: Type.Optional(nullable(Type.String())),
  summaryLock: optionalLock(),
  /** Not blank; null = unchanged. */
  number: Type.Optional(nullable(Type.String())),
  numberLock: optionalLock(),
  /** null = unchanged. */
  numberSort: Type.Optional(nullable(Type.Number())),
  numberSortLock: optionalLock(),
  /** `YYYY-MM-DD`; null clears it. */
  releaseDate: Type.Optional(nullable(Type.String())),
  releaseDateLock: optionalLock(),
  /** Name and role not blank, no (name, role) twice; null = []. */
  authors: Type.Optional(nullable(Type.Array(AuthorUpdateDto))),
  authorsLock: optionalLock(),
  /** null = []. */
  tags: Type.Optional(nullableStrings()),
  tagsLock: optionalLock(),
  /** A valid ISBN-13 (check digit), or blank; stored as its 13 digits; null = "". */
  isbn: Type.Optional(nullable(Type.String())),
  isbnLock: optionalLock(),
  /** Label not blank and unique, url http(s); null = []. */
  links: Type.Optional(nullable(Type.Array(WebLinkUpdateDto))),
  linksLock: optionalLock(),
});
export type BookMetadataUpdateDto = Static<typeof BookMetadataUpdateDto>;

/** `PATCH /api/v1/books/metadata`: book id → its update; unknown ids are skipped. */
export const BookMetadataBatchUpdateDto = Type.Record(Type.String(), BookMetadataUpdateDto);
export type BookMetadataBatchUpdateDto = Static<typeof BookMetadataBatchUpdateDto>;

export const SeriesMetadataUpdateDto = Type.Object({
  /** null = unchanged. */
  status: Type.Optional(nullableEnum(SERIES_STATUSES)),
  statusLock: optionalLock(),
  /** Not blank; null = unchanged. */
  title: Type.Optional(nullable(Type.String())),
  titleLock: optionalLock(),
  /** Not blank; null = unchanged. */
  titleSort: Type.Optional(nullable(Type.String())),
  titleSortLock: optionalLock(),
  /** null = unchanged; "" clears. */
  summary: Type.Optional(nullable(Type.String())),
  summaryLock: optionalLock(),
  /** null clears. */
  readingDirection: Type.Optional(nullableEnum(READING_DIRECTIONS)),
  readingDirectionLock: optionalLock(),
  /** null = unchanged; "" clears. */
  publisher: Type.Optional(nullable(Type.String())),
  publisherLock: optionalLock(),
  /** ≥ 0; null clears. */
  ageRating: Type.Optional(nullable(Type.Integer())),
  ageRatingLock: optionalLock(),
  /** A BCP 47 tag (stored canonical, e.g. `en-us` → `en-US`) or blank; null = unchanged. */
  language: Type.Optional(nullable(Type.String())),
  languageLock: optionalLock(),
  /** null = []. */
  genres: Type.Optional(nullableStrings()),
  genresLock: optionalLock(),
  /** null = []. */
  tags: Type.Optional(nullableStrings()),
  tagsLock: optionalLock(),
  /** ≥ 1; null clears. */
  totalBookCount: Type.Optional(nullable(Type.Integer())),
  totalBookCountLock: optionalLock(),
  /** null = []. */
  sharingLabels: Type.Optional(nullableStrings()),
  sharingLabelsLock: optionalLock(),
  /** Label not blank and unique, url http(s); null = []. */
  links: Type.Optional(nullable(Type.Array(WebLinkUpdateDto))),
  linksLock: optionalLock(),
  /** Label and title not blank; null = []. */
  alternateTitles: Type.Optional(nullable(Type.Array(AlternateTitleUpdateDto))),
  alternateTitlesLock: optionalLock(),
});
export type SeriesMetadataUpdateDto = Static<typeof SeriesMetadataUpdateDto>;
