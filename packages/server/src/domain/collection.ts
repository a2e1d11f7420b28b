import type { WebLink } from './metadata.js';

/** Collections (of series) and read lists (of books), with their posters. */

export type PosterOwner = 'collection' | 'readlist';

export interface StoredPoster {
  id: string;
  owner: PosterOwner;
  ownerId: string;
  selected: boolean;
  mediaType: string;
  fileSize: number;
  width: number;
  height: number;
  createdDate: string;
}

export interface StoredCollection {
  id: string;
  name: string;
  ordered: boolean;
  createdDate: string;
  lastModifiedDate: string;
}

/** A collection with how many of its series exist, how many the viewer sees, and how many of those are in the asked libraries. */
export interface CollectionCounts extends StoredCollection {
  total: number;
  visible: number;
  inLibraries: number;
}

export interface CollectionMember {
  collectionId: string;
  seriesId: string;
  /** Position in the collection, 0-based. */
  number: number;
  titleSort: string;
  visible: boolean;
}

export interface StoredReadList {
  id: string;
  name: string;
  summary: string;
  ordered: boolean;
  createdDate: string;
  lastModifiedDate: string;
}

/** A read list with how many of its books exist, how many the viewer sees, and how many of those are in the asked libraries. */
export interface ReadListCounts extends StoredReadList {
  total: number;
  visible: number;
  inLibraries: number;
}

export interface ReadListMember {
  readListId: string;
  bookId: string;
  /** Position key in the list (0-based positions; ComicInfo story-arc numbers may leave gaps). */
  number: number;
  releaseDate: string | null;
  visible: boolean;
}

/** A book that may answer a ComicRack list's request (engine.md §10): what the match answer shows of it. */
export interface CblCandidate {
  seriesId: string;
  /** The series' metadata title, the one a request is matched against. */
  seriesTitle: string;
  /** The series' aggregated release date (its first book's). */
  seriesReleaseDate: string | null;
  bookId: string;
  bookNumber: string;
  bookTitle: string;
}

/** What a ComicRack list and a ZIP download need about a book. */
export interface ExportedBook {
  id: string;
  name: string;
  libraryId: string;
  /** file: URL. */
  url: string;
  seriesTitle: string;
  number: string;
  releaseDate: string | null;
  /** Web links of the book, then of its series. */
  links: WebLink[];
}
