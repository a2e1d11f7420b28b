import { Type, type Static, type TSchema } from 'typebox';

/**
 * Libraries (api.md §3.1, §4.3) and the admin's folder browser (api.md §9.6).
 * Names and shapes are Komga's; each answer is checked against komga-openapi.json in the server's tests.
 */

/** JSON-schema type array rather than `anyOf`, so type coercion cannot turn a value into null. */
const nullable = <T extends TSchema & { type: string }>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });

export const SCAN_INTERVAL_NAMES = ['DISABLED', 'HOURLY', 'EVERY_6H', 'EVERY_12H', 'DAILY', 'WEEKLY'] as const;
export const SERIES_COVER_NAMES = ['FIRST', 'FIRST_UNREAD_OR_FIRST', 'FIRST_UNREAD_OR_LAST', 'LAST'] as const;

const optionFields = {
  importComicInfoBook: Type.Boolean(),
  importComicInfoSeries: Type.Boolean(),
  importComicInfoCollection: Type.Boolean(),
  importComicInfoReadList: Type.Boolean(),
  importComicInfoSeriesAppendVolume: Type.Boolean(),
  importEpubBook: Type.Boolean(),
  importEpubSeries: Type.Boolean(),
  importMylarSeries: Type.Boolean(),
  importLocalArtwork: Type.Boolean(),
  importBarcodeIsbn: Type.Boolean(),
  scanForceModifiedTime: Type.Boolean(),
  scanOnStartup: Type.Boolean(),
  scanCbx: Type.Boolean(),
  scanPdf: Type.Boolean(),
  scanEpub: Type.Boolean(),
  repairExtensions: Type.Boolean(),
  convertToCbz: Type.Boolean(),
  emptyTrashAfterScan: Type.Boolean(),
  hashFiles: Type.Boolean(),
  hashPages: Type.Boolean(),
  hashKoreader: Type.Boolean(),
  analyzeDimensions: Type.Boolean(),
};

/** `oneshotsDirectory` is null when unset (Komga serialises nulls here). */
export const LibraryDto = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** "" for non-admins (api.md §2.10). */
  root: Type.String(),
  ...optionFields,
  scanInterval: Type.Enum([...SCAN_INTERVAL_NAMES]),
  scanDirectoryExclusions: Type.Array(Type.String()),
  seriesCover: Type.Enum([...SERIES_COVER_NAMES]),
  oneshotsDirectory: nullable(Type.String()),
  /** The root was not accessible during the last scan. */
  unavailable: Type.Boolean(),
});
export type LibraryDto = Static<typeof LibraryDto>;

const optional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

/** Only `name` and `root` are required; every option defaults to Komga's value (api.md §4.3). */
export const LibraryCreationDto = Type.Object({
  name: Type.String({ minLength: 1 }),
  root: Type.String({ minLength: 1 }),
  ...optional(optionFields),
  scanInterval: Type.Optional(Type.Enum([...SCAN_INTERVAL_NAMES])),
  scanDirectoryExclusions: Type.Optional(nullable(Type.Array(Type.String()))),
  seriesCover: Type.Optional(Type.Enum([...SERIES_COVER_NAMES])),
  /** Blank means none. */
  oneshotsDirectory: Type.Optional(nullable(Type.String())),
});
export type LibraryCreationDto = Static<typeof LibraryCreationDto>;

/**
 * Omitted (or null) = unchanged, except `scanDirectoryExclusions` (null ⇒ []) and `oneshotsDirectory`
 * (null or blank ⇒ cleared).
 */
export const LibraryUpdateDto = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  root: Type.Optional(Type.String({ minLength: 1 })),
  ...optional(optionFields),
  scanInterval: Type.Optional(Type.Enum([...SCAN_INTERVAL_NAMES])),
  scanDirectoryExclusions: Type.Optional(nullable(Type.Array(Type.String()))),
  seriesCover: Type.Optional(Type.Enum([...SERIES_COVER_NAMES])),
  oneshotsDirectory: Type.Optional(nullable(Type.String())),
});
export type LibraryUpdateDto = Static<typeof LibraryUpdateDto>;

export const LibraryIdParams = Type.Object({ libraryId: Type.String() });
export type LibraryIdParams = Static<typeof LibraryIdParams>;

export const LibraryScanQuery = Type.Object({ deep: Type.Optional(Type.Boolean({ default: false })) });
export type LibraryScanQuery = Static<typeof LibraryScanQuery>;

/** Both fields optional: an empty body lists the file-system roots. */
export const DirectoryRequestDto = Type.Object({
  path: Type.Optional(Type.String()),
  showFiles: Type.Optional(Type.Boolean()),
});
export type DirectoryRequestDto = Static<typeof DirectoryRequestDto>;

export const PathDto = Type.Object({
  type: Type.Enum(['directory', 'file']),
  name: Type.String(),
  path: Type.String(),
});
export type PathDto = Static<typeof PathDto>;

/** Omits nulls: `parent` is absent when listing the roots, "" at a root. */
export const DirectoryListingDto = Type.Object({
  parent: Type.Optional(Type.String()),
  directories: Type.Array(PathDto),
  files: Type.Array(PathDto),
});
export type DirectoryListingDto = Static<typeof DirectoryListingDto>;
