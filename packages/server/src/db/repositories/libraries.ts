import { compiledQuery } from '../compiled.js';
import type { Db } from '../database.js';
import type { LibraryRepository } from '../../domain/ports.js';
import type { LibraryTable } from '../schema.js';
import type { Selectable } from 'kysely';
import {
  libraryOptions,
  type Library,
  type LibraryOptions,
  type ScanInterval,
  type SeriesCover,
} from '../../domain/library.js';

type LibraryRow = Selectable<LibraryTable>;

/** Boolean options and their columns (the rest are mapped by hand). */
const FLAGS = {
  importComicInfoBook: 'import_comicinfo_book',
  importComicInfoSeries: 'import_comicinfo_series',
  importComicInfoCollection: 'import_comicinfo_collection',
  importComicInfoReadList: 'import_comicinfo_readlist',
  importComicInfoSeriesAppendVolume: 'import_comicinfo_series_append_volume',
  importEpubBook: 'import_epub_book',
  importEpubSeries: 'import_epub_series',
  importMylarSeries: 'import_mylar_series',
  importLocalArtwork: 'import_local_artwork',
  importBarcodeIsbn: 'import_barcode_isbn',
  scanForceModifiedTime: 'scan_force_modified_time',
  scanOnStartup: 'scan_on_startup',
  scanCbx: 'scan_cbx',
  scanPdf: 'scan_pdf',
  scanEpub: 'scan_epub',
  repairExtensions: 'repair_extensions',
  convertToCbz: 'convert_to_cbz',
  emptyTrashAfterScan: 'empty_trash_after_scan',
  hashFiles: 'hash_files',
  hashPages: 'hash_pages',
  hashKoreader: 'hash_koreader',
  analyzeDimensions: 'analyze_dimensions',
} as const satisfies Partial<Record<keyof LibraryOptions, keyof LibraryTable>>;

function toLibrary(row: LibraryRow): Library {
  const flags = Object.fromEntries(Object.entries(FLAGS).map(([k, col]) => [k, Boolean(row[col])])) as Record<
    keyof typeof FLAGS,
    boolean
  >;
  return {
    id: row.id,
    name: row.name,
    root: row.root,
    unavailableDate: row.unavailable_date ? new Date(row.unavailable_date) : null,
    ...libraryOptions({
      ...flags,
      scanInterval: row.scan_interval as ScanInterval,
      seriesCover: row.series_cover as SeriesCover,
      scanDirectoryExclusions: JSON.parse(row.scan_directory_exclusions) as string[],
      oneshotsDirectory: row.oneshots_directory,
    }),
  };
}

function toColumns(library: Library) {
  const flags = Object.fromEntries(
    Object.entries(FLAGS).map(([k, col]) => [col, library[k as keyof typeof FLAGS] ? 1 : 0]),
  );
  return {
    name: library.name,
    root: library.root,
    scan_interval: library.scanInterval,
    series_cover: library.seriesCover,
    oneshots_directory: library.oneshotsDirectory,
    scan_directory_exclusions: JSON.stringify(library.scanDirectoryExclusions),
    unavailable_date: library.unavailableDate?.toISOString() ?? null,
    ...(flags as Record<(typeof FLAGS)[keyof typeof FLAGS], number>),
  };
}

/** Read by every task of a book (its library's options): compiled once (db/compiled.ts). */
const findQuery = compiledQuery((db, id: string) => db.selectFrom('library').selectAll().where('id', '=', id));

/** Libraries as stored (engine.md §1.2). */
export class KyselyLibraryRepository implements LibraryRepository {
  constructor(private readonly db: Db) {}

  /** Sorted by lower-cased name (api.md §3.1). */
  async list(t: Db = this.db): Promise<Library[]> {
    const rows = await t.selectFrom('library').selectAll().execute();
    return rows
      .map(toLibrary)
      .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id));
  }

  async find(id: string, t: Db = this.db): Promise<Library | undefined> {
    const [row] = (await findQuery(t, id)).rows;
    return row && toLibrary(row);
  }

  async insert(library: Library, at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    await t
      .insertInto('library')
      .values({ id: library.id, ...toColumns(library), created_date: now, last_modified_date: now })
      .execute();
  }

  async update(library: Library, at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    await t
      .updateTable('library')
      .set({ ...toColumns(library), last_modified_date: now })
      .where('id', '=', library.id)
      .execute();
  }

  async setUnavailable(id: string, date: Date | null, t: Db = this.db): Promise<void> {
    await t
      .updateTable('library')
      .set({ unavailable_date: date?.toISOString() ?? null })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Removes the library row, its users' sharing entries and its sidecar rows; series and books (and
   * everything hanging from them) go with it through the foreign keys' cascades.
   */
  async delete(id: string, t: Db = this.db): Promise<void> {
    await t.deleteFrom('user_library_sharing').where('library_id', '=', id).execute();
    await t.deleteFrom('sidecar').where('library_id', '=', id).execute();
    await t.deleteFrom('library').where('id', '=', id).execute();
  }
}
