/** Posters of books and series: generated from a page, found beside the files, or uploaded (engine.md §5). */

export type ThumbnailOwner = 'book' | 'series';

export type StoredThumbnailType = 'GENERATED' | 'SIDECAR' | 'USER_UPLOADED';

export interface StoredThumbnail {
  id: string;
  owner: ThumbnailOwner;
  /** The book id or the series id. */
  ownerId: string;
  type: StoredThumbnailType;
  /** file: URL of the sidecar image; null for images stored under the data directory. */
  url: string | null;
  selected: boolean;
  mediaType: string;
  fileSize: number;
  width: number;
  height: number;
  createdDate: string;
  lastModifiedDate: string;
}

export type NewThumbnail = Omit<StoredThumbnail, 'createdDate' | 'lastModifiedDate'>;

/** What poster generation reads about a book: its file, its analysis and its first page. */
export interface BookForThumbnail {
  id: string;
  seriesId: string;
  libraryId: string;
  url: string;
  mediaStatus: string | null;
  mediaType: string | null;
  epubDivinaCompatible: boolean;
  firstPage: { fileName: string; mediaType: string; width: number | null; height: number | null } | null;
}

export interface SeriesForThumbnail {
  id: string;
  libraryId: string;
  url: string;
  oneshot: boolean;
  seriesCover: string;
  importLocalArtwork: boolean;
}

/** What content restrictions read about a series (api.md §2.10). */
export interface VisibilityFacts {
  libraryId: string;
  seriesId: string;
  ageRating: number | null;
  sharingLabels: string[];
}
