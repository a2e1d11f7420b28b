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
