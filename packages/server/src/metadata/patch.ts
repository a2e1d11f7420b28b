import type { ReadingDirection, SeriesStatus } from '@quire/api';
import type {
  Author,
  BookMetadata,
  BookMetadataChanges,
  SeriesMetadata,
  SeriesMetadataChanges,
  WebLink,
} from '../domain/metadata.js';

/**
 * Metadata patches (engine.md §6.1-6.2): what one source (ComicInfo.xml, an OPF, series.json, a barcode) says
 * about a book or a series. `null` means "this source says nothing about it" and never clears a value.
 */

/** A read list a book belongs to, with its position in it when the source gives one. */
export interface ReadListEntry {
  name: string;
  number: number | null;
}

export interface BookMetadataPatch {
  title: string | null;
  summary: string | null;
  number: string | null;
  numberSort: number | null;
  /** `YYYY-MM-DD`. */
  releaseDate: string | null;
  authors: Author[] | null;
  tags: string[] | null;
  /** 13 digits. */
  isbn: string | null;
  links: WebLink[] | null;
  readLists: ReadListEntry[];
}

export interface SeriesMetadataPatch {
  title: string | null;
  titleSort: string | null;
  status: SeriesStatus | null;
  summary: string | null;
  readingDirection: ReadingDirection | null;
  publisher: string | null;
  ageRating: number | null;
  /** Canonical BCP 47. */
  language: string | null;
  genres: string[] | null;
  totalBookCount: number | null;
  /** Collections the series belongs to (ComicInfo SeriesGroup). */
  collections: string[];
}

/**
 * A value a source holds but that could not be used, kept so that one bad element costs that element only
 * (Komga drops the whole ComicInfo.xml) and so that the refresh can log what it left out.
 */
export interface Skipped {
  /** Element or key name as written in the source. */
  field: string;
  value: string;
  reason: string;
}

export const emptyBookPatch = (): BookMetadataPatch => ({
  title: null,
  summary: null,
  number: null,
  numberSort: null,
  releaseDate: null,
  authors: null,
  tags: null,
  isbn: null,
  links: null,
  readLists: [],
});

export const emptySeriesPatch = (): SeriesMetadataPatch => ({
  title: null,
  titleSort: null,
  status: null,
  summary: null,
  readingDirection: null,
  publisher: null,
  ageRating: null,
  language: null,
  genres: null,
  totalBookCount: null,
  collections: [],
});

/** Book fields a refresh may set, by the capability that asks for them (engine.md §1.4). */
export const BOOK_FIELDS_BY_CAPABILITY = {
  TITLE: ['title'],
  SUMMARY: ['summary'],
  NUMBER: ['number'],
  NUMBER_SORT: ['numberSort'],
  RELEASE_DATE: ['releaseDate'],
  AUTHORS: ['authors'],
  TAGS: ['tags'],
  ISBN: ['isbn'],
  LINKS: ['links'],
  READ_LISTS: [],
  THUMBNAILS: [],
} as const satisfies Record<string, readonly BookField[]>;

export type BookField = Exclude<keyof BookMetadataPatch, 'readLists'>;
export type BookCapability = keyof typeof BOOK_FIELDS_BY_CAPABILITY;

/** The fields a set of capabilities selects. */
export function fieldsOf(capabilities: Iterable<BookCapability>): Set<BookField> {
  const fields = new Set<BookField>();
  for (const c of capabilities) for (const f of BOOK_FIELDS_BY_CAPABILITY[c] as readonly BookField[]) fields.add(f);
  return fields;
}

/** Later patches win, field by field, where they say something (engine.md §6.1); read lists add up. */
export function mergeBookPatches(patches: readonly BookMetadataPatch[]): BookMetadataPatch {
  const merged = emptyBookPatch();
  for (const p of patches) {
    for (const key of Object.keys(merged) as (keyof BookMetadataPatch)[]) {
      if (key === 'readLists') merged.readLists.push(...p.readLists);
      else if (p[key] !== null) (merged as unknown as Record<string, unknown>)[key] = p[key];
    }
  }
  return merged;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Lower-cased, trimmed, blanks and repeats removed: how Komga's model keeps tags, genres and labels (§1.5). */
export function normalizeTerms(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim().toLowerCase()).filter((v) => v !== ''))];
}

/** Names trimmed, roles trimmed and lower-cased, blanks and repeated (name, role) pairs removed (§1.5). */
export function normalizeAuthors(authors: readonly Author[]): Author[] {
  const seen = new Set<string>();
  const out: Author[] = [];
  for (const a of authors) {
    const author = { name: a.name.trim(), role: a.role.trim().toLowerCase() };
    const key = `${author.role}\u0000${author.name}`;
    if (!author.name || !author.role || seen.has(key)) continue;
    seen.add(key);
    out.push(author);
  }
  return out;
}

/**
 * What a refresh writes to a book (engine.md §6.2): each selected field the patch has a value for, unless its
 * lock is set; fields whose value would not change are left out, so an unchanged book stays untouched.
 */
export function bookChanges(
  current: BookMetadata,
  patch: BookMetadataPatch,
  fields: ReadonlySet<BookField>,
): BookMetadataChanges {
  const changes: BookMetadataChanges = {};
  const want = <K extends BookField>(field: K, lock: boolean) => fields.has(field) && !lock && patch[field] !== null;
  const title = patch.title?.trim();
  if (want('title', current.titleLock) && title && title !== current.title) changes.title = title;
  const summary = patch.summary?.trim();
  if (want('summary', current.summaryLock) && summary !== undefined && summary !== current.summary)
    changes.summary = summary;
  const number = patch.number?.trim();
  if (want('number', current.numberLock) && number && number !== current.number) changes.number = number;
  if (want('numberSort', current.numberSortLock) && Number.isFinite(patch.numberSort))
    if (patch.numberSort !== current.numberSort) changes.numberSort = patch.numberSort!;
  if (want('releaseDate', current.releaseDateLock) && patch.releaseDate !== current.releaseDate)
    changes.releaseDate = patch.releaseDate;
  if (want('authors', current.authorsLock)) {
    const authors = normalizeAuthors(patch.authors!);
    if (!same(authors, current.authors)) changes.authors = authors;
  }
  if (want('tags', current.tagsLock)) {
    const tags = normalizeTerms(patch.tags!);
    if (!same([...tags].sort(), [...current.tags].sort())) changes.tags = tags;
  }
  if (want('isbn', current.isbnLock) && patch.isbn !== current.isbn) changes.isbn = patch.isbn!;
  if (want('links', current.linksLock) && !same(patch.links, current.links)) changes.links = patch.links!;
  return changes;
}

/** The series counterpart of {@link bookChanges}; tags, links, alternate titles and sharing labels are API-only. */
export function seriesChanges(current: SeriesMetadata, patch: SeriesMetadataPatch): SeriesMetadataChanges {
  const changes: SeriesMetadataChanges = {};
  const title = patch.title?.trim();
  if (title && !current.titleLock && title !== current.title) changes.title = title;
  const titleSort = patch.titleSort?.trim();
  if (titleSort && !current.titleSortLock && titleSort !== current.titleSort) changes.titleSort = titleSort;
  if (patch.status && !current.statusLock && patch.status !== current.status) changes.status = patch.status;
  const summary = patch.summary?.trim();
  if (summary !== undefined && !current.summaryLock && summary !== current.summary) changes.summary = summary;
  if (patch.readingDirection && !current.readingDirectionLock && patch.readingDirection !== current.readingDirection)
    changes.readingDirection = patch.readingDirection;
  const publisher = patch.publisher?.trim();
  if (publisher !== undefined && !current.publisherLock && publisher !== current.publisher)
    changes.publisher = publisher;
  if (patch.ageRating !== null && !current.ageRatingLock && patch.ageRating !== current.ageRating)
    changes.ageRating = patch.ageRating;
  if (patch.language && !current.languageLock && patch.language !== current.language) changes.language = patch.language;
  if (patch.genres && !current.genresLock) {
    const genres = normalizeTerms(patch.genres);
    if (!same([...genres].sort(), [...current.genres].sort())) changes.genres = genres;
  }
  if (patch.totalBookCount !== null && !current.totalBookCountLock && patch.totalBookCount !== current.totalBookCount)
    changes.totalBookCount = patch.totalBookCount;
  return changes;
}

export const isEmpty = (changes: object) => Object.keys(changes).length === 0;
