import { compiledQuery } from '../compiled.js';
import { atomically, type Db } from '../database.js';
import type { MediaRepository } from '../../domain/ports.js';
import type {
  MediaStatusValue,
  StoredMedia,
  StoredPage,
  StoredFile,
  MediaAnalysis,
  AnalysisTarget,
} from '../../domain/media.js';

/**
 * The analysis of a book (engine.md §4): the `media` row, its pages (`media_page`, 0-based) and the
 * entries that are not pages (`media_file`). Also the few book/library columns analysis and hashing need.
 */

const CHUNK = 200;
const chunks = <T>(items: readonly T[], size = CHUNK): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};
const pageKey = (p: { fileName: string; mediaType: string; fileSize: number | null }) =>
  `${p.fileSize ?? ''}\u0000${p.mediaType}\u0000${p.fileName}`;

// What every analysis of a book runs, whatever the book: compiled once (db/compiled.ts).
const analysisTargetQuery = compiledQuery((db, bookId: string) =>
  db
    .selectFrom('book as b')
    .innerJoin('library as l', 'l.id', 'b.library_id')
    .leftJoin('media as m', 'm.book_id', 'b.id')
    .select([
      'b.id',
      'b.series_id',
      'b.library_id',
      'b.name',
      'b.url',
      'b.file_hash',
      'b.file_hash_koreader',
      'b.file_size',
      'b.file_last_modified',
      'm.status',
      'm.media_type',
      'm.page_count',
      'l.analyze_dimensions',
      'l.hash_files',
      'l.hash_pages',
      'l.hash_koreader',
      'l.convert_to_cbz',
      'l.repair_extensions',
      'l.import_barcode_isbn',
      'l.import_comicinfo_book',
      'l.import_comicinfo_series',
      'l.import_comicinfo_collection',
      'l.import_comicinfo_readlist',
      'l.import_comicinfo_series_append_volume',
    ])
    .where('b.id', '=', bookId),
);

const upsertQuery = compiledQuery(
  (
    db,
    bookId: string,
    now: string,
    status: string,
    mediaType: string | null,
    comment: string | null,
    pageCount: number,
    epubDivinaCompatible: number,
    epubIsKepub: number,
    extension: string | null,
  ) => {
    const values = {
      status,
      media_type: mediaType,
      comment,
      page_count: pageCount,
      epub_divina_compatible: epubDivinaCompatible,
      epub_is_kepub: epubIsKepub,
      extension,
      last_modified_date: now,
    };
    return db
      .insertInto('media')
      .values({ book_id: bookId, created_date: now, ...values })
      .onConflict((oc) => oc.column('book_id').doUpdateSet(values));
  },
);
const setFileHashQuery = compiledQuery((db, bookId: string, hash: string) =>
  db.updateTable('book').set({ file_hash: hash }).where('id', '=', bookId),
);
const findQuery = compiledQuery((db, bookId: string) =>
  db.selectFrom('media').selectAll().where('book_id', '=', bookId),
);
const pagesQuery = compiledQuery((db, bookId: string) =>
  db.selectFrom('media_page').selectAll().where('book_id', '=', bookId).orderBy('number'),
);
const deletePagesQuery = compiledQuery((db, bookId: string) =>
  db.deleteFrom('media_page').where('book_id', '=', bookId),
);
const deleteFilesQuery = compiledQuery((db, bookId: string) =>
  db.deleteFrom('media_file').where('book_id', '=', bookId),
);

export class KyselyMediaRepository implements MediaRepository {
  constructor(private readonly db: Db) {}

  async analysisTarget(bookId: string, t: Db = this.db): Promise<AnalysisTarget | undefined> {
    const [row] = (await analysisTargetQuery(t, bookId)).rows;
    if (!row) return undefined;
    return {
      bookId: row.id,
      seriesId: row.series_id,
      libraryId: row.library_id,
      name: row.name,
      url: row.url,
      fileHash: row.file_hash,
      fileHashKoreader: row.file_hash_koreader,
      fileSize: row.file_size,
      fileLastModified: row.file_last_modified,
      status: (row.status ?? 'UNKNOWN') as MediaStatusValue,
      mediaType: row.media_type ?? null,
      pageCount: row.page_count ?? 0,
      analyzeDimensions: Boolean(row.analyze_dimensions),
      hashFiles: Boolean(row.hash_files),
      hashPages: Boolean(row.hash_pages),
      hashKoreader: Boolean(row.hash_koreader),
      convertToCbz: Boolean(row.convert_to_cbz),
      repairExtensions: Boolean(row.repair_extensions),
      importBarcodeIsbn: Boolean(row.import_barcode_isbn),
      importComicInfo: Boolean(
        row.import_comicinfo_book ||
        row.import_comicinfo_series ||
        row.import_comicinfo_collection ||
        row.import_comicinfo_readlist,
      ),
      importComicInfoSeriesAppendVolume: Boolean(row.import_comicinfo_series_append_volume),
    };
  }

  async find(bookId: string, t: Db = this.db): Promise<StoredMedia | undefined> {
    const [row] = (await findQuery(t, bookId)).rows;
    if (!row) return undefined;
    return {
      bookId: row.book_id,
      status: row.status as MediaStatusValue,
      mediaType: row.media_type,
      comment: row.comment,
      pageCount: row.page_count,
      epubDivinaCompatible: Boolean(row.epub_divina_compatible),
      epubIsKepub: Boolean(row.epub_is_kepub),
      extension: row.extension,
      createdDate: row.created_date,
      lastModifiedDate: row.last_modified_date,
    };
  }

  async pages(bookId: string, t: Db = this.db): Promise<StoredPage[]> {
    return (await pagesQuery(t, bookId)).rows.map(toPage);
  }

  /** One page, 0-based. */
  async page(bookId: string, number: number, t: Db = this.db): Promise<StoredPage | undefined> {
    const row = await t
      .selectFrom('media_page')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('number', '=', number)
      .executeTakeFirst();
    return row && toPage(row);
  }

  async files(bookId: string, t: Db = this.db): Promise<StoredFile[]> {
    const rows = await t.selectFrom('media_file').selectAll().where('book_id', '=', bookId).execute();
    return rows.map((r) => ({
      fileName: r.file_name,
      mediaType: r.media_type,
      subType: r.sub_type,
      fileSize: r.file_size,
    }));
  }

  /**
   * Replaces the analysis of a book in one transaction. Hashes of pages that did not change (same file
   * name, media type and size) are kept. When an OUTDATED book's page count changed, every user's progress
   * is adjusted (engine.md §4.5): completed → last page, else page 1. Returns the previous media, if any.
   */
  async save(bookId: string, a: MediaAnalysis, at: Date): Promise<StoredMedia | undefined> {
    const now = at.toISOString();
    return atomically(this.db, async (t) => {
      const before = await this.find(bookId, t);
      const oldHashes = new Map(
        (await this.pages(bookId, t)).filter((p) => p.fileHash !== '').map((p) => [pageKey(p), p.fileHash]),
      );
      await deletePagesQuery(t, bookId);
      await deleteFilesQuery(t, bookId);
      await upsertQuery(
        t,
        bookId,
        now,
        a.status,
        a.mediaType,
        a.comment,
        a.pageCount,
        a.epubDivinaCompatible ? 1 : 0,
        a.epubIsKepub ? 1 : 0,
        a.extension,
      );
      const pages = a.pages.map((p, number) => ({
        book_id: bookId,
        number,
        file_name: p.fileName,
        media_type: p.mediaType,
        width: p.width,
        height: p.height,
        file_size: p.fileSize,
        file_hash: oldHashes.get(pageKey(p)) ?? '',
      }));
      for (const part of chunks(pages)) await t.insertInto('media_page').values(part).execute();
      const files = a.files.map((f) => ({
        book_id: bookId,
        file_name: f.fileName,
        media_type: f.mediaType,
        sub_type: f.subType,
        file_size: f.fileSize,
      }));
      for (const part of chunks(files)) await t.insertInto('media_file').values(part).execute();

      if (before?.status === 'OUTDATED' && before.pageCount !== a.pageCount) {
        await t
          .updateTable('read_progress')
          .set({ page: a.pageCount, last_modified_date: now })
          .where('book_id', '=', bookId)
          .where('completed', '=', 1)
          .execute();
        await t
          .updateTable('read_progress')
          .set({ page: 1, last_modified_date: now })
          .where('book_id', '=', bookId)
          .where('completed', '=', 0)
          .execute();
      }
      return before;
    });
  }

  /** Stores page hashes (0-based page numbers). */
  async setPageHashes(bookId: string, hashes: readonly { number: number; hash: string }[]): Promise<void> {
    if (hashes.length === 0) return;
    await atomically(this.db, async (t) => {
      for (const h of hashes) {
        await t
          .updateTable('media_page')
          .set({ file_hash: h.hash })
          .where('book_id', '=', bookId)
          .where('number', '=', h.number)
          .execute();
      }
    });
  }

  /** The book's file hash (HashBook, engine.md §5.1). */
  async setFileHash(bookId: string, hash: string): Promise<void> {
    await setFileHashQuery(this.db, bookId, hash);
  }

  /** The book's KOReader partial MD5 (HashBookKoreader, engine.md §5.2). */
  async setKoreaderHash(bookId: string, hash: string): Promise<void> {
    await this.db.updateTable('book').set({ file_hash_koreader: hash }).where('id', '=', bookId).execute();
  }

  /**
   * READY books of a library and media type with fewer page hashes than they should have: min(pageCount,
   * 2 × perEnd) (FindBooksWithMissingPageHash, engine.md §5.3).
   */
  async booksWithMissingPageHashes(
    libraryId: string,
    mediaType: string,
    perEnd: number,
  ): Promise<{ id: string; seriesId: string }[]> {
    const rows = await this.db
      .selectFrom('book as b')
      .innerJoin('media as m', 'm.book_id', 'b.id')
      .select(['b.id', 'b.series_id'])
      .where('b.library_id', '=', libraryId)
      .where('b.deleted_date', 'is', null)
      .where('m.status', '=', 'READY')
      .where('m.media_type', '=', mediaType)
      .where((eb) =>
        eb(
          eb
            .selectFrom('media_page as p')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('p.book_id', '=', 'b.id')
            .where('p.file_hash', '!=', ''),
          '<',
          eb
            .case()
            .when('m.page_count', '<', 2 * perEnd)
            .then(eb.ref('m.page_count'))
            .else(2 * perEnd)
            .end(),
        ),
      )
      .orderBy('b.id')
      .execute();
    return rows.map((r) => ({ id: r.id, seriesId: r.series_id }));
  }
}

function toPage(r: {
  number: number;
  file_name: string;
  media_type: string;
  width: number | null;
  height: number | null;
  file_hash: string;
  file_size: number | null;
}): StoredPage {
  return {
    number: r.number,
    fileName: r.file_name,
    mediaType: r.media_type,
    width: r.width,
    height: r.height,
    fileHash: r.file_hash,
    fileSize: r.file_size,
  };
}
