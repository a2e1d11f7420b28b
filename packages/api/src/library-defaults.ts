/**
 * Komga's defaults for a new library (engine.md §1.2), shared by the server and the web client. This file
 * imports nothing; it reaches the web client through `@quire/api/constants`.
 */
export const SCAN_INTERVALS = ['DISABLED', 'HOURLY', 'EVERY_6H', 'EVERY_12H', 'DAILY', 'WEEKLY'] as const;
export const SERIES_COVERS = ['FIRST', 'FIRST_UNREAD_OR_FIRST', 'FIRST_UNREAD_OR_LAST', 'LAST'] as const;

/** What Komga's web clients pre-fill, and what its migration inserted for existing libraries. */
export const SUGGESTED_DIRECTORY_EXCLUSIONS: readonly string[] = ['#recycle', '@eaDir', '@Recycle'];

export const LIBRARY_OPTION_DEFAULTS = {
  importComicInfoBook: true,
  importComicInfoSeries: true,
  importComicInfoCollection: true,
  importComicInfoReadList: true,
  importComicInfoSeriesAppendVolume: true,
  importEpubBook: true,
  importEpubSeries: true,
  importMylarSeries: true,
  importLocalArtwork: true,
  importBarcodeIsbn: true,
  scanForceModifiedTime: false,
  scanOnStartup: false,
  scanInterval: 'EVERY_6H' as (typeof SCAN_INTERVALS)[number],
  scanCbx: true,
  scanPdf: true,
  scanEpub: true,
  // The API default is the empty set; web clients pre-fill SUGGESTED_DIRECTORY_EXCLUSIONS.
  scanDirectoryExclusions: [] as string[],
  repairExtensions: false,
  convertToCbz: false,
  emptyTrashAfterScan: false,
  seriesCover: 'FIRST' as (typeof SERIES_COVERS)[number],
  hashFiles: true,
  hashPages: false,
  hashKoreader: false,
  analyzeDimensions: true,
};

/**
 * What the add-library dialog pre-fills: the API defaults, except the directory exclusions, which both Komga web
 * clients pre-fill, and the ISBN barcode search, which it leaves off (ui.md §12.6: it reads pages of every book, the
 * costliest part of an import). `bench:scan --options web` sends the same.
 */
export const LIBRARY_FORM_DEFAULTS = {
  ...LIBRARY_OPTION_DEFAULTS,
  importBarcodeIsbn: false,
  scanDirectoryExclusions: [...SUGGESTED_DIRECTORY_EXCLUSIONS],
};
