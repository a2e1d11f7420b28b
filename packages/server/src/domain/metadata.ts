/**
 * Book and series metadata as the services see them (engine.md §6): one shape for each, whichever database holds
 * it. Lists (authors, tags, links…) are plain arrays in stored order; locks are booleans.
 */

export interface Author {
  name: string;
  role: string;
}

export interface WebLink {
  label: string;
  url: string;
}

export interface AlternateTitle {
  label: string;
  title: string;
}

/** When a metadata row was created and last changed (ISO-8601), as the API shows them. */
export interface Dated {
  createdDate: string;
  lastModifiedDate: string;
}

export interface BookMetadata {
  title: string;
  titleLock: boolean;
  summary: string;
  summaryLock: boolean;
  number: string;
  numberLock: boolean;
  numberSort: number;
  numberSortLock: boolean;
  /** `YYYY-MM-DD`. */
  releaseDate: string | null;
  releaseDateLock: boolean;
  /** In stored order. */
  authors: Author[];
  authorsLock: boolean;
  tags: string[];
  tagsLock: boolean;
  /** 13 digits or "". */
  isbn: string;
  isbnLock: boolean;
  links: WebLink[];
  linksLock: boolean;
}

export type BookMetadataChanges = Partial<BookMetadata>;

export interface SeriesMetadata {
  status: string;
  statusLock: boolean;
  title: string;
  titleLock: boolean;
  titleSort: string;
  titleSortLock: boolean;
  summary: string;
  summaryLock: boolean;
  readingDirection: string | null;
  readingDirectionLock: boolean;
  publisher: string;
  publisherLock: boolean;
  ageRating: number | null;
  ageRatingLock: boolean;
  language: string;
  languageLock: boolean;
  genres: string[];
  genresLock: boolean;
  tags: string[];
  tagsLock: boolean;
  totalBookCount: number | null;
  totalBookCountLock: boolean;
  sharingLabels: string[];
  sharingLabelsLock: boolean;
  links: WebLink[];
  linksLock: boolean;
  alternateTitles: AlternateTitle[];
  alternateTitlesLock: boolean;
}

export type SeriesMetadataChanges = Partial<SeriesMetadata>;

/** `book_metadata_aggregation` and its side tables. */
export interface AggregationRecord {
  authors: Author[];
  tags: string[];
  releaseDate: string | null;
  summary: string;
  summaryNumber: string;
}

/** What the aggregation of a series reads from each of its books. */
export interface AggregationSource {
  bookId: string;
  number: string;
  numberSort: number;
  summary: string;
  releaseDate: string | null;
  authors: Author[];
  tags: string[];
}
