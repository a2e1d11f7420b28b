/** A series (a folder of books) as the scanner and the trash see it. */

/** A series row as the scanner sees it. Times are epoch milliseconds. */
export interface SeriesRecord {
  id: string;
  libraryId: string;
  name: string;
  url: string;
  fileLastModified: number;
  oneshot: boolean;
  bookCount: number;
  deletedDate: Date | null;
}

export interface NewSeries {
  id: string;
  libraryId: string;
  name: string;
  url: string;
  fileLastModified: number;
  oneshot: boolean;
  title: string;
  titleSort: string;
}
