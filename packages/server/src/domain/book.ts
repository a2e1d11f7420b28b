import type { MediaStatusValue } from './media.js';

/** A book as the scanner, the trash and the use cases that move files see it. */

/** A book row as the scanner sees it. Times are epoch milliseconds. */
export interface BookRecord {
  id: string;
  seriesId: string;
  libraryId: string;
  name: string;
  url: string;
  number: number;
  fileSize: number;
  fileLastModified: number;
  fileHash: string;
  oneshot: boolean;
  deletedDate: Date | null;
}

export interface NewBook {
  id: string;
  seriesId: string;
  libraryId: string;
  name: string;
  url: string;
  fileSize: number;
  fileLastModified: number;
  fileHash: string;
  oneshot: boolean;
  /** Initial metadata (engine.md §2.4 `addBooks`). */
  title: string;
  number: string;
  numberSort: number;
}

/** What `numberBooks` needs of a book. */
export interface BookNumbering {
  id: string;
  name: string;
  number: number;
  metadata: { number: string; numberSort: number; numberLock: boolean; numberSortLock: boolean };
}

/** What access checks read of a book: its library, and its series' age rating and sharing labels. */
export interface BookAccess {
  libraryId: string;
  ageRating: number | null;
  sharingLabels: string[];
}

/** A book's analysis as the API shows it. */
export interface BookMediaView {
  status: MediaStatusValue;
  mediaType: string | null;
  comment: string | null;
  pageCount: number;
  epubDivinaCompatible: boolean;
  epubIsKepub: boolean;
  lastModifiedDate: string;
}

/** What page, file and resource endpoints need, without the metadata. */
export interface BookFileView {
  id: string;
  seriesId: string;
  name: string;
  url: string;
  fileSize: number;
  /** The file's modification time when it was last scanned (with its size, what identifies its content). */
  fileLastModified: string;
  media: BookMediaView;
  access: BookAccess;
}
