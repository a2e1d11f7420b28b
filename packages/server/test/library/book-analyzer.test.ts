import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireEvent } from '@quire/api';
import { createEventBus } from '../../src/events/bus.js';
import { KyselyLibraryRepository } from '../../src/db/repositories/libraries.js';
import { KyselyMediaRepository } from '../../src/db/repositories/media.js';
import type { MediaRepository } from '../../src/domain/ports.js';
import { BookAnalyzer } from '../../src/library/book-analyzer.js';
import { BookHasher } from '../../src/library/book-hasher.js';
import { LibraryFiles } from '../../src/library/library-files.js';
import { closeSevenZipWorkers } from '../../src/media/archives/index.js';
import { PdfService } from '../../src/media/pdf/index.js';
import { tempDatabase } from '../tasks/helpers.js';
import { makeBook, makeLibrary, makeSeries } from '../support/factories.js';
import { fixture } from '../support/fixtures.js';

type Status = 'READY' | 'ERROR' | 'UNSUPPORTED';
type Row = [file: string, status: Status, pages: number, comment: string];

const ZIP = 'application/zip';

/*
 * One row per file under shared/fixtures/real/{archives,epub,pdf}, after AnalyzeBook. Page counts and
 * codes are the adapters' own measured values (test/media/{archives,epub,pdf}.test.ts, established with
 * 7z, bsdtar, pdfinfo and an independent Python reader); the status follows engine.md §4.1-4.4.
 * Where Quire differs from Komga the row says so ("Komga:").
 */
const rows: Row[] = [
  // ---- archives: no image entry → ERROR ERR_1006 ----
  ['archives/7Zip.EmptyStream.7z', 'ERROR', 0, 'ERR_1006'], // Komga: UNSUPPORTED ERR_1001 (7z never read)
  ['archives/7zip-encrypted.7z', 'UNSUPPORTED', 0, 'ERR_1002'], // Komga: UNSUPPORTED ERR_1001
  ['archives/7zip.7z', 'READY', 1, ''], // Komga: UNSUPPORTED ERR_1001 (PIN); Quire reads 7z
  ['archives/Captain Science #001-cbi.cbr', 'READY', 5, ''],
  ['archives/Captain Science #001-cix.cbt', 'READY', 5, ''], // Komga: UNSUPPORTED ERR_1001 (xz tar)
  ['archives/Captain Science #001-metron.cbz', 'ERROR', 0, 'ERR_1006'],
  ['archives/Captain Science #001.cb7', 'READY', 5, ''], // Komga: UNSUPPORTED ERR_1001
  ['archives/Captain Science #001.cbz', 'READY', 5, ''],
  ['archives/ComicInfo_duplicateInfos.zip', 'ERROR', 0, 'ERR_1006'],
  ['archives/ComicInfo_outside_root_SharpCompress.cb7', 'ERROR', 0, 'ERR_1006'], // Komga: UNSUPPORTED ERR_1001
  ['archives/Rar.multi.part01.rar', 'READY', 1, ''], // Komga: UNSUPPORTED ERR_1004; Quire reads the set
  ['archives/Rar.multi.part02.rar', 'UNSUPPORTED', 0, 'ERR_1004'],
  ['archives/Rar.multi.part03.rar', 'UNSUPPORTED', 0, 'ERR_1004'],
  ['archives/Rar.multi.part04.rar', 'UNSUPPORTED', 0, 'ERR_1004'],
  ['archives/Rar.multi.part05.rar', 'UNSUPPORTED', 0, 'ERR_1004'],
  ['archives/Rar.multi.part06.rar', 'UNSUPPORTED', 0, 'ERR_1004'],
  ['archives/Rar5.encrypted_filesOnly.rar', 'UNSUPPORTED', 0, 'ERR_1002'],
  ['archives/Umlaut.zip', 'ERROR', 0, 'ERR_1006'],
  ['archives/Zip.Evil.zip', 'ERROR', 0, 'ERR_1006'],
  ['archives/Zip.UnicodePathExtra.zip', 'ERROR', 0, 'ERR_1006'],
  // the CP437-named text entry is not read back by the 7-Zip path (mediaType null) → ERR_1007, as Komga reports unreadable entries
  ['archives/Zip.deflate64.zip', 'READY', 1, 'ERR_1007 [ΓÑßΓ.txt]'],
  // the CP437-named text entry is not read back by the 7-Zip path (mediaType null) → ERR_1007, as Komga reports unreadable entries
  ['archives/Zip.ppmd.zip', 'READY', 1, 'ERR_1007 [ΓÑßΓ.txt]'],
  ['archives/Zip.zip64.zip', 'READY', 1, ''],
  ['archives/book-image-format-test.zip', 'READY', 5, ''],
  ['archives/book.rar', 'READY', 1, ''],
  ['archives/empty.zip', 'ERROR', 0, 'ERR_1006'],
  ['archives/fake_cbr.cbr', 'ERROR', 0, 'ERR_1006'],
  ['archives/file in folder in folder.zip', 'READY', 1, ''],
  ['archives/futuristic_tales.TRUNCATED.cbz', 'ERROR', 0, 'ERR_1008'],
  ['archives/futuristic_tales.cbz', 'READY', 4, ''],
  ['archives/macos_one.zip', 'ERROR', 0, 'ERR_1006'],
  ['archives/macos_resource_fork.cbz', 'READY', 2, ''],
  ['archives/macos_withdotunder_one.zip', 'ERROR', 0, 'ERR_1006'],
  ['archives/nested-macos-compressed.cbz', 'READY', 3, ''],
  ['archives/rar4-encrypted.rar', 'UNSUPPORTED', 0, 'ERR_1002'],
  ['archives/rar4-solid.rar', 'READY', 3, ''],
  ['archives/rar4.rar', 'READY', 3, ''],
  ['archives/rar5-encrypted.rar', 'UNSUPPORTED', 0, 'ERR_1002'],
  ['archives/rar5-solid.rar', 'READY', 3, ''],
  ['archives/rar5.rar', 'READY', 1, ''],
  ['archives/sorting.zip', 'READY', 2, ''],
  ['archives/winrar.rar', 'ERROR', 0, 'ERR_1006'],
  ['archives/zip-copy.zip', 'READY', 1, ''],
  ['archives/zip-encrypted.zip', 'UNSUPPORTED', 0, 'ERR_1002'], // Komga: ERROR ERR_1006 (entries unreadable)
  ['archives/zip.zip', 'READY', 1, ''],
  // ---- EPUB: always READY (sub-failures are comments); pages = Divina pages, else Σ ceil(compressed/1 KiB) ----
  ['epub/SmokeTest-EPUB2.epub', 'READY', 18, ''],
  ['epub/The Golden Harpoon; Or, Lost Among the Floes A Story of the Whaling Grounds.epub', 'READY', 110, ''],
  ['epub/The Incomplete Theft - Ralph Burke.epub', 'READY', 14, ''],
  ['epub/TitleWithVolume.epub', 'READY', 110, ''],
  ['epub/book.epub', 'READY', 83, ''],
  ['epub/cole-voyage-of-life.epub', 'READY', 12, ''],
  ['epub/epub3.epub', 'READY', 2, ''],
  ['epub/epub30-test-0101.epub', 'READY', 13, ''],
  ['epub/epub30-test-0103.epub', 'READY', 6, ''],
  ['epub/epub30-test-0202.epub', 'READY', 12, ''],
  ['epub/epub30-test-0211.epub', 'READY', 12, ''],
  [
    'epub/kusamakura-japanese-vertical-writing.epub',
    'READY',
    171,
    'ERR_1033 [OPS/audio/fmse004b.mp3, OPS/audio/ulnr0036.mp3]',
  ],
  ['epub/large-tables.epub', 'READY', 5, ''],
  ['epub/moby-dick.epub', 'READY', 659, ''],
  ['epub/page-blanche.epub', 'READY', 10, ''],
  ['epub/pub-cmt-gif.epub', 'READY', 1, ''],
  ['epub/pub-cmt-webp.epub', 'READY', 1, ''],
  ['epub/zip-as-epub.epub', 'ERROR', 0, 'ERR_1032'],
  // ---- PDF: every file PDF.js/PDFium cannot open → ERROR ERR_1005, as Komga (PDFBox) ----
  ['pdf/REDHAT-1531897-0.pdf', 'ERROR', 0, 'ERR_1005'], // Komga's PDFBox may repair this one
  ['pdf/ccitt.pdf', 'READY', 1, ''],
  ['pdf/freeculture.pdf', 'READY', 352, ''],
  ['pdf/invalid.pdf', 'ERROR', 0, 'ERR_1005'],
  ['pdf/issue6010_1.pdf', 'ERROR', 0, 'ERR_1005'], // user password required
  ['pdf/komga.pdf', 'READY', 1, ''],
  ['pdf/labelled_pages.pdf', 'READY', 11, ''],
  ['pdf/multipage.pdf', 'READY', 6, ''],
  ['pdf/nested_outline.pdf', 'READY', 9, ''],
  ['pdf/secHandler.pdf', 'READY', 1, ''], // owner password only
  ['pdf/tall.pdf', 'READY', 1, ''],
  ['pdf/test_cix.pdf', 'READY', 4, ''],
  ['pdf/test_ſ.pdf', 'READY', 1, ''],
  ['pdf/two_pages.pdf', 'READY', 2, ''],
];

let env: Awaited<ReturnType<typeof tempDatabase>>;
let media: MediaRepository;
let analyzer: BookAnalyzer;
let libraryId: string;
let seriesId: string;
const pdf = new PdfService({ workers: 2 });
const events: QuireEvent[] = [];

beforeAll(async () => {
  env = await tempDatabase();
  media = new KyselyMediaRepository(env.db);
  const bus = createEventBus();
  bus.subscribe((e) => events.push(e));
  analyzer = new BookAnalyzer({
    media,
    pdf,
    events: bus,
    files: new LibraryFiles({ libraries: new KyselyLibraryRepository(env.db) }),
    tasks: undefined as never, // analysis itself queues nothing: its follow-ups are returned
  });
  libraryId = await makeLibrary(env.db);
  seriesId = await makeSeries(env.db, libraryId);
});
afterAll(async () => {
  await pdf.close();
  await closeSevenZipWorkers();
  await env.cleanup();
});

describe('AnalyzeBook on every real fixture', () => {
  it('the table covers every fixture file', async () => {
    const listed = new Set(rows.map((r) => r[0]));
    for (const dir of ['archives', 'epub', 'pdf']) {
      const files = (await readdir(fixture(dir), { withFileTypes: true })).filter(
        (f) => f.isFile() && f.name !== 'SOURCES.md' && f.name !== 'SHA256SUMS',
      );
      for (const f of files) expect(listed.has(`${dir}/${f.name}`), `${dir}/${f.name}`).toBe(true);
    }
  });

  it.each(rows)('%s → %s, %i pages %s', async (file, status, pages, comment) => {
    const bookId = await makeBook(env.db, { libraryId, seriesId }, fixture(file));
    const next = await analyzer.analyzeAndPersist(bookId);
    const m = (await media.find(bookId))!;
    expect(m.status).toBe(status);
    expect(m.pageCount).toBe(pages);
    expect(m.comment ?? '').toBe(comment);
    const stored = await media.pages(bookId);
    if (status === 'READY') {
      // Non-Divina EPUBs have a page count (KiB-based) but no stored pages.
      if (!file.startsWith('epub/') || m.epubDivinaCompatible) expect(stored).toHaveLength(pages);
      expect(next.map((t) => t.kind)).toEqual(['GenerateBookThumbnail', 'RefreshBookMetadata']);
    } else {
      expect(stored).toHaveLength(0);
      expect(next).toEqual([]);
    }
    expect(events.at(-1)).toEqual({ type: 'BookChanged', data: { bookId, seriesId, libraryId } });
  });
});

describe('AnalyzeBook details', () => {
  it('queues a metadata refresh that waits for the analyses only where the library searches barcodes', async () => {
    const refreshOf = async (library: string) => {
      const series = await makeSeries(env.db, library);
      const bookId = await makeBook(
        env.db,
        { libraryId: library, seriesId: series },
        fixture('archives/futuristic_tales.cbz'),
      );
      return (await analyzer.analyzeAndPersist(bookId)).find((t) => t.kind === 'RefreshBookMetadata');
    };
    const searching = await makeLibrary(env.db); // the API's default: ISBN barcodes searched
    expect(await refreshOf(searching)).toMatchObject({ afterAnalyses: true });
    const notSearching = await makeLibrary(env.db);
    await env.db.updateTable('library').set({ import_barcode_isbn: 0 }).where('id', '=', notSearching).execute();
    expect((await refreshOf(notSearching))?.afterAnalyses).toBeUndefined();
  });

  it('stores page names, types and dimensions of an archive, and its other entries as files', async () => {
    const bookId = await makeBook(env.db, { libraryId, seriesId }, fixture('archives/futuristic_tales.cbz'));
    await analyzer.analyzeAndPersist(bookId);
    const pages = await media.pages(bookId);
    expect(pages[0]).toMatchObject({ number: 0, mediaType: 'image/jpeg', width: 654, height: 1040, fileSize: 150202 });
    const cap = await makeBook(env.db, { libraryId, seriesId }, fixture('archives/Captain Science #001.cbz'));
    await analyzer.analyzeAndPersist(cap);
    expect((await media.find(cap))!.mediaType).toBe(ZIP);
    expect((await media.files(cap)).map((f) => f.mediaType)).toContain('application/xml');
  });

  it('skips dimensions when the library does not analyze them', async () => {
    const lib = await makeLibrary(env.db, { analyzeDimensions: false });
    const s = await makeSeries(env.db, lib);
    const bookId = await makeBook(env.db, { libraryId: lib, seriesId: s }, fixture('archives/futuristic_tales.cbz'));
    await analyzer.analyzeAndPersist(bookId);
    expect((await media.pages(bookId))[0]).toMatchObject({ width: null, height: null });
  });

  it('stores EPUB analysis in the extension and Divina pages for image-only EPUBs', async () => {
    const bookId = await makeBook(env.db, { libraryId, seriesId }, fixture('epub/epub3.epub'));
    await analyzer.analyzeAndPersist(bookId);
    const m = (await media.find(bookId))!;
    expect(m).toMatchObject({ mediaType: 'application/epub+zip', epubDivinaCompatible: true });
    const ext = JSON.parse(m.extension!) as { positions: unknown[]; isFixedLayout: boolean };
    expect(ext.positions).toHaveLength(2);
    expect(ext.isFixedLayout).toBe(true);
    expect((await media.pages(bookId)).map((p) => p.fileName)).toEqual(['cover.jpeg', '0_0.png']);
    expect((await media.files(bookId)).filter((f) => f.subType === 'EPUB_PAGE')).toHaveLength(2);
  });

  it('names PDF pages 1…n with their crop box as dimension', async () => {
    const bookId = await makeBook(env.db, { libraryId, seriesId }, fixture('pdf/two_pages.pdf'));
    await analyzer.analyzeAndPersist(bookId);
    expect(await media.pages(bookId)).toMatchObject([
      { fileName: '1', mediaType: '', width: 612, height: 792 },
      { fileName: '2', mediaType: '', width: 612, height: 792 },
    ]);
  });

  it('answers ERR_1018 for a missing file and ERR_1001 for a file nothing reads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-analyzer-'));
    try {
      const missing = await makeBook(env.db, { libraryId, seriesId }, join(dir, 'gone.cbz'));
      await analyzer.analyzeAndPersist(missing);
      expect(await media.find(missing)).toMatchObject({ status: 'ERROR', comment: 'ERR_1018', mediaType: null });
      await writeFile(join(dir, 'text.cbz'), 'just some text, not an archive');
      const text = await makeBook(env.db, { libraryId, seriesId }, join(dir, 'text.cbz'));
      await analyzer.analyzeAndPersist(text);
      expect(await media.find(text)).toMatchObject({
        status: 'UNSUPPORTED',
        comment: 'ERR_1001',
        mediaType: 'text/plain',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the hashes of unchanged pages when re-analysing, and adjusts progress of an OUTDATED book', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-analyzer-'));
    try {
      const file = join(dir, 'book.cbz');
      await copyFile(fixture('archives/futuristic_tales.cbz'), file);
      const lib = await makeLibrary(env.db, { hashPages: true });
      const s = await makeSeries(env.db, lib);
      const bookId = await makeBook(env.db, { libraryId: lib, seriesId: s }, file);
      await analyzer.analyzeAndPersist(bookId);
      const libraries = new KyselyLibraryRepository(env.db);
      const hasher = new BookHasher({ media, libraries, files: new LibraryFiles({ libraries }) });
      // the analysis hashed the 4 pages from the bytes it read (issue 18): nothing left for HashBookPages
      expect(await hasher.hashBookPages(bookId)).toBe(0);
      const hashes = (await media.pages(bookId)).map((p) => p.fileHash);
      expect(hashes.every((h) => /^[0-9a-f]{32}$/.test(h))).toBe(true);

      // a reader finished the book; the file then changes to one with 1 page
      const userId = 'U1';
      const t = new Date().toISOString();
      await env.db
        .insertInto('user')
        .values({
          id: userId,
          email: 'u@x.org',
          email_lower: 'u@x.org',
          password_hash: 'x',
          shared_all_libraries: 1,
          age_restriction: null,
          age_restriction_allow_only: null,
          created_date: t,
          last_modified_date: t,
        })
        .execute();
      await env.db
        .insertInto('read_progress')
        .values({
          book_id: bookId,
          user_id: userId,
          page: 4,
          completed: 1,
          read_date: t,
          created_date: t,
          last_modified_date: t,
        })
        .execute();
      await analyzer.analyzeAndPersist(bookId);
      expect((await media.pages(bookId)).map((p) => p.fileHash)).toEqual(hashes);

      await copyFile(fixture('archives/zip.zip'), file);
      await env.db.updateTable('media').set({ status: 'OUTDATED' }).where('book_id', '=', bookId).execute();
      await analyzer.analyzeAndPersist(bookId);
      expect((await media.find(bookId))!.pageCount).toBe(1);
      const progress = await env.db
        .selectFrom('read_progress')
        .selectAll()
        .where('book_id', '=', bookId)
        .executeTakeFirstOrThrow();
      expect(progress.page).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
