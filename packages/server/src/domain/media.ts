/** A book's analysis: its status, pages and other files (engine.md §4). */

export type MediaStatusValue = 'UNKNOWN' | 'ERROR' | 'READY' | 'UNSUPPORTED' | 'OUTDATED';

export interface StoredMedia {
  bookId: string;
  status: MediaStatusValue;
  mediaType: string | null;
  comment: string | null;
  pageCount: number;
  epubDivinaCompatible: boolean;
  epubIsKepub: boolean;
  /** Raw JSON of the format-specific analysis (EPUB TOC, positions…), parsed by the services. */
  extension: string | null;
  createdDate: string;
  lastModifiedDate: string;
}

export interface StoredPage {
  /** 0-based. */
  number: number;
  fileName: string;
  mediaType: string;
  width: number | null;
  height: number | null;
  fileHash: string;
  fileSize: number | null;
}

export interface StoredFile {
  fileName: string;
  mediaType: string | null;
  subType: string | null;
  fileSize: number | null;
}

/** What analysis produces; page hashes are carried over by {@link MediaRepository.save}. */
export interface MediaAnalysis {
  status: MediaStatusValue;
  mediaType: string | null;
  comment: string | null;
  pageCount: number;
  epubDivinaCompatible: boolean;
  epubIsKepub: boolean;
  extension: string | null;
  pages: Omit<StoredPage, 'number' | 'fileHash'>[];
  files: StoredFile[];
}

/** A book as analysis and hashing see it, with its library's options. */
export interface AnalysisTarget {
  bookId: string;
  seriesId: string;
  libraryId: string;
  name: string;
  /** file: URL. */
  url: string;
  fileHash: string;
  fileHashKoreader: string;
  fileSize: number;
  /** ISO date of the file's time when last scanned. */
  fileLastModified: string;
  status: MediaStatusValue;
  mediaType: string | null;
  pageCount: number;
  analyzeDimensions: boolean;
  hashFiles: boolean;
  hashPages: boolean;
  hashKoreader: boolean;
  convertToCbz: boolean;
  repairExtensions: boolean;
  /** The library looks for ISBN barcodes on pages (its metadata refreshes decode up to six pages a book). */
  importBarcodeIsbn: boolean;
  /** The library imports book metadata or read lists from ComicInfo.xml. */
  importComicInfo: boolean;
  /** ComicInfo's volume is appended to the series name (what a parsed ComicInfo.xml depends on). */
  importComicInfoSeriesAppendVolume: boolean;
}
