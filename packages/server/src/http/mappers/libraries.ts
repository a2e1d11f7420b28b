import type { LibraryDto } from '@quire/api';
import type { Library } from '../../domain/library.js';
import { isAdmin, type CurrentUser } from '../../domain/user.js';

/** `root` is "" for non-admins (api.md §2.10); `unavailable` when the last scan could not read the root. */
export function toLibraryDto(library: Library, user: CurrentUser): LibraryDto {
  return {
    id: library.id,
    name: library.name,
    root: isAdmin(user) ? library.root : '',
    importComicInfoBook: library.importComicInfoBook,
    importComicInfoSeries: library.importComicInfoSeries,
    importComicInfoCollection: library.importComicInfoCollection,
    importComicInfoReadList: library.importComicInfoReadList,
    importComicInfoSeriesAppendVolume: library.importComicInfoSeriesAppendVolume,
    importEpubBook: library.importEpubBook,
    importEpubSeries: library.importEpubSeries,
    importMylarSeries: library.importMylarSeries,
    importLocalArtwork: library.importLocalArtwork,
    importBarcodeIsbn: library.importBarcodeIsbn,
    scanForceModifiedTime: library.scanForceModifiedTime,
    scanInterval: library.scanInterval,
    scanOnStartup: library.scanOnStartup,
    scanCbx: library.scanCbx,
    scanPdf: library.scanPdf,
    scanEpub: library.scanEpub,
    scanDirectoryExclusions: [...library.scanDirectoryExclusions],
    repairExtensions: library.repairExtensions,
    convertToCbz: library.convertToCbz,
    emptyTrashAfterScan: library.emptyTrashAfterScan,
    seriesCover: library.seriesCover,
    hashFiles: library.hashFiles,
    hashPages: library.hashPages,
    hashKoreader: library.hashKoreader,
    analyzeDimensions: library.analyzeDimensions,
    oneshotsDirectory: library.oneshotsDirectory,
    unavailable: library.unavailableDate !== null,
  };
}

/** Whether the user may see the library (api.md §2.10): admins see every library. */
export const canSeeLibrary = (user: CurrentUser, libraryId: string) =>
  isAdmin(user) || user.sharedAllLibraries || user.sharedLibraryIds.includes(libraryId);
