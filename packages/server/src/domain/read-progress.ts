/** Read progress of a user on a book, and the facts its updates need (engine.md §9). */

export interface StoredReadProgress {
  bookId: string;
  userId: string;
  /** 1-based. */
  page: number;
  completed: boolean;
  readDate: string;
  deviceId: string;
  deviceName: string;
  /** The Readium locator as it was stored (JSON), null when progress was set by page. */
  locator: unknown;
  createdDate: string;
  lastModifiedDate: string;
}

export type NewReadProgress = Omit<StoredReadProgress, 'createdDate' | 'lastModifiedDate'>;

/** What content restrictions read (series metadata); books inherit their series'. */
export interface AccessFacts {
  libraryId: string;
  ageRating: number | null;
  sharingLabels: string[];
}

/** A book with its media, as progress updates need it. */
export interface ProgressBook {
  id: string;
  seriesId: string;
  access: AccessFacts;
  mediaStatus: string | null;
  mediaType: string | null;
  pageCount: number;
  epubDivinaCompatible: boolean;
  /** Raw JSON of the EPUB analysis (positions…); null for other formats. */
  extension: string | null;
}

/** A book of a series or read list, with the caller's state: null = unread, false = in progress, true = read. */
export interface BookState {
  id: string;
  seriesId: string;
  numberSort: number;
  pageCount: number;
  completed: boolean | null;
  access: AccessFacts;
}
