import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ThumbnailRepository, UnitOfWork } from '../domain/ports.js';
import {
  type BookForThumbnail,
  type StoredThumbnail,
  type StoredThumbnailType,
  type ThumbnailOwner,
} from '../domain/thumbnail.js';
import { badRequest, forbidden, notFound, QuireError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { naturalCompare } from '../domain/natural-sort.js';
import { accessTo, type ContentViewer } from '../domain/restrictions.js';
import { THUMBNAIL_SIZES, type SettingsStore } from '../domain/settings.js';
import type { EventBus } from '../events/bus.js';
import { readerFor } from '../media/archives/index.js';
import { detectBuffer, MediaTypes, SNIFF_BYTES } from '../media/detect.js';
import { getEpubCover } from '../media/epub/index.js';
import { imageDimensions, makeThumbnail, UnsupportedImageError, type EncodedImage } from '../media/images.js';
import type { PdfService } from '../media/pdf/index.js';
import { PRIORITY } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import { realPathInside, type LibraryFiles } from './library-files.js';

export type { StoredThumbnail, ThumbnailOwner } from '../domain/thumbnail.js';

/*
 * Book and series posters (engine.md §7, api.md §1.9, §3.2-3.3).
 *
 * Where the bytes live (never in the database):
 *   <dataDir>/thumbnails/books/<bookId>/<thumbnailId>.jpg          GENERATED and USER_UPLOADED posters
 *   <dataDir>/thumbnails/books/<bookId>/<thumbnailId>-<edge>.jpg   a SIDECAR image resized to <edge>
 *   <dataDir>/thumbnails/series/<seriesId>/…                       the same for series posters
 * One folder per owner, so deleting a book's or a series' posters needs no database row
 * (see {@link deleteThumbnailFiles}).
 *
 * Everything served is JPEG, so `/thumbnail` answers `image/jpeg` with JPEG bytes and no request transcodes:
 * - GENERATED: the first page (PDF page 1 rendered, EPUB cover) fitted into the `thumbnailSize` square,
 *   never upscaled; a JPEG page that already fits is stored as is (Komga).
 * - USER_UPLOADED: the upload, checked by decoding it, stored as JPEG fitted into 1200 px (the largest
 *   thumbnail size, so a later size change never needs the original; Komga keeps the raw bytes). The row
 *   describes the stored JPEG.
 * - SIDECAR: the row keeps the sidecar's URL, type, size and dimensions (as Komga lists them); the JPEG
 *   served is made from the sidecar at the current `thumbnailSize` when it is imported, and again on
 *   first read after the size setting changed (the edge is in the file name). Every read checks the
 *   sidecar still exists; a vanished one is dropped (housekeeping).
 *
 * Selection (engine.md §7.1): exactly one selected poster per owner. Generated posters and the first
 * sidecar are selected only if none is selected or the selected one is GENERATED; uploads when asked
 * (default yes). When the selected poster disappears, the next one is chosen by precedence
 * USER_UPLOADED > SIDECAR > GENERATED, then oldest first (Komga takes the first row in database order).
 */

/** Uploads are stored fitted into this edge (the XLARGE thumbnail size). */
export const UPLOAD_MAX_EDGE = THUMBNAIL_SIZES.XLARGE;
/** Local artwork extensions (engine.md §2.3). */
const ARTWORK_EXTENSIONS = new Set(['png', 'jpeg', 'jpg', 'tbn', 'webp', 'gif']);
const SERIES_ARTWORK_NAMES = new Set(['cover', 'default', 'folder', 'poster', 'series']);
const PRECEDENCE: Record<StoredThumbnailType, number> = { USER_UPLOADED: 0, SIDECAR: 1, GENERATED: 2 };

type Preference = 'YES' | 'NO' | 'IF_NONE_OR_GENERATED';

export interface ThumbnailsLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ThumbnailsDeps {
  thumbnails: ThumbnailRepository;
  /** A poster's rows and its owner's selection change together. */
  uow: UnitOfWork;
  events: EventBus;
  settings: SettingsStore;
  dataDir: string;
  /** Books, series folders and sidecar images are opened through it: inside their library root only. */
  files: LibraryFiles;
  /** Where the regeneration of every book's poster is queued. */
  tasks: TaskEmitter;
  logger?: ThumbnailsLogger;
  /** The app's PDF worker pool: a PDF's poster is its first page, rendered. */
  pdf: Pick<PdfService, 'renderPage'>;
}

export type Thumbnails = ReturnType<typeof createThumbnails>;

/** Folder holding one owner's poster files. */
export function thumbnailFolder(dataDir: string, owner: ThumbnailOwner, ownerId: string): string {
  return join(dataDir, 'thumbnails', owner === 'book' ? 'books' : 'series', ownerId);
}

/**
 * Removes every poster file of these books and series. Call it when they are hard-deleted (trash emptied,
 * library deleted); their rows go with the book/series rows (ON DELETE CASCADE). Safe to call twice.
 */
export async function deleteThumbnailFiles(
  dataDir: string,
  ids: { bookIds?: readonly string[]; seriesIds?: readonly string[] },
): Promise<void> {
  const folders = [
    ...(ids.bookIds ?? []).map((id) => thumbnailFolder(dataDir, 'book', id)),
    ...(ids.seriesIds ?? []).map((id) => thumbnailFolder(dataDir, 'series', id)),
  ];
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
}

/** Pages after the first tried, in order, when the first cannot make a poster. */
const POSTER_FALLBACK_PAGES = 4;

export function createThumbnails(deps: ThumbnailsDeps) {
  const repo = deps.thumbnails;
  const { events, settings, dataDir, files } = deps;
  const log = deps.logger;
  const renderPdf = async (
    file: string,
    dimension: { width: number; height: number } | undefined,
    resolution: number,
  ): Promise<Uint8Array> =>
    (await deps.pdf.renderPage(file, 1, { ...(dimension ? { dimension } : {}), resolution })).bytes;

  const folderOf = (t: Pick<StoredThumbnail, 'owner' | 'ownerId'>) => thumbnailFolder(dataDir, t.owner, t.ownerId);
  const storedPath = (t: Pick<StoredThumbnail, 'owner' | 'ownerId' | 'id'>) => join(folderOf(t), `${t.id}.jpg`);
  const sidecarCachePath = (t: StoredThumbnail, edge: number) => join(folderOf(t), `${t.id}-${edge}.jpg`);
  const currentEdge = async () => THUMBNAIL_SIZES[(await settings.get()).thumbnailSize];

  async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  }

  /** The thumbnail's own file and every resized copy of it. */
  async function removeFiles(t: StoredThumbnail): Promise<void> {
    const folder = folderOf(t);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return;
    }
    await Promise.all(
      names
        .filter((n) => n === `${t.id}.jpg` || (n.startsWith(`${t.id}-`) && n.endsWith('.jpg')))
        .map((n) => rm(join(folder, n), { force: true })),
    );
  }

  async function seriesIdOfBook(bookId: string): Promise<string> {
    return (await repo.findBook(bookId))?.seriesId ?? '';
  }

  /** `seriesId`: a book poster's series when the caller knows it (else read). */
  async function emit(
    t: StoredThumbnail,
    kind: 'Added' | 'Deleted',
    selected: boolean,
    seriesId?: string,
  ): Promise<void> {
    if (t.owner === 'book') {
      seriesId ??= await seriesIdOfBook(t.ownerId);
      events.emit({
        type: kind === 'Added' ? 'ThumbnailBookAdded' : 'ThumbnailBookDeleted',
        data: { bookId: t.ownerId, seriesId, selected },
      });
    } else {
      events.emit({
        type: kind === 'Added' ? 'ThumbnailSeriesAdded' : 'ThumbnailSeriesDeleted',
        data: { seriesId: t.ownerId, selected },
      });
    }
  }

  /** A sidecar image of a book or series, resolved inside the owner's library root; null otherwise. */
  async function sidecarPath(t: StoredThumbnail): Promise<string | null> {
    if (!t.url) return null;
    const owner = t.owner === 'book' ? await repo.findBook(t.ownerId) : await repo.findSeries(t.ownerId);
    return owner ? files.pathOf({ libraryId: owner.libraryId, url: t.url }) : null;
  }

  /** Does the image behind this poster still exist (for a sidecar: inside its library root)? */
  async function sourceExists(t: StoredThumbnail): Promise<boolean> {
    const path = t.type === 'SIDECAR' ? await sidecarPath(t) : storedPath(t);
    if (!path) return false;
    try {
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  }

  /** The best poster by precedence, then age; the list is in insertion order. */
  const best = (list: readonly StoredThumbnail[]) =>
    [...list].sort((a, b) => PRECEDENCE[a.type] - PRECEDENCE[b.type])[0];

  /**
   * engine.md §7.1 housekeeping: drop posters whose image is gone; keep exactly one selected when any
   * remain. Returns what remains.
   */
  async function housekeeping(owner: ThumbnailOwner, ownerId: string): Promise<StoredThumbnail[]> {
    const checked = await repo.findAllByOwner(owner, ownerId);
    const exists = await Promise.all(checked.map(sourceExists));
    const goneIds = new Set(checked.filter((_, i) => !exists[i]).map((t) => t.id));
    // Decided on a fresh read inside one transaction: a poster replaced meanwhile is not resurrected.
    const { gone, remaining, keep } = await deps.uow.run(async ({ thumbnails: r }) => {
      const all = await r.findAllByOwner(owner, ownerId);
      const gone = all.filter((t) => goneIds.has(t.id));
      const remaining = all.filter((t) => !goneIds.has(t.id));
      await r.delete(
        owner,
        gone.map((t) => t.id),
      );
      const selected = remaining.filter((t) => t.selected);
      const keep = selected.length > 1 ? best(selected) : selected.length === 0 ? best(remaining) : undefined;
      if (keep) {
        await r.markSelected(owner, ownerId, keep.id);
        for (const t of remaining) t.selected = t.id === keep.id;
      }
      return { gone, remaining, keep };
    });
    if (gone.length > 0) {
      log?.warn({ owner, ownerId, thumbnails: gone.map((t) => t.id) }, 'Poster image missing; poster removed');
      await Promise.all(gone.map(removeFiles));
    }
    if (keep) await emit(keep, 'Added', true);
    return remaining;
  }

  /**
   * Komga's addThumbnailFor{Book,Series}: replace (the GENERATED poster, or the SIDECAR row of the same
   * file), insert, select per preference — in one transaction, so a reader never sees the owner without
   * its poster — then remove the replaced files and announce.
   */
  async function add(t: StoredThumbnail, preference: Preference, seriesId?: string): Promise<StoredThumbnail> {
    const { replaced, inserted } = await deps.uow.run(async ({ thumbnails: r }) => {
      const existing = await r.findAllByOwner(t.owner, t.ownerId);
      const replaced = existing.filter(
        (e) => (t.type === 'GENERATED' && e.type === 'GENERATED') || (t.type === 'SIDECAR' && e.url === t.url),
      );
      await r.delete(
        t.owner,
        replaced.map((e) => e.id),
      );
      const current = existing.find((e) => e.selected && !replaced.includes(e));
      const select =
        preference === 'YES' || (preference === 'IF_NONE_OR_GENERATED' && (!current || current.type === 'GENERATED'));
      // An owner with no selected poster left (a new book's first) gets it selected as inserted: no update of the
      // others, nor of the row just written (issue 18: statements per imported book).
      const alone = !existing.some((e) => e.selected && !replaced.includes(e));
      const inserted = await r.insert({ ...t, selected: select && alone });
      if (select && !alone) {
        await r.markSelected(t.owner, t.ownerId, t.id);
        inserted.selected = true;
      }
      return { replaced, inserted };
    });
    await Promise.all(replaced.map(removeFiles));
    await emit(inserted, 'Added', inserted.selected, seriesId);
    if (inserted.selected) return inserted;
    await housekeeping(t.owner, t.ownerId);
    return (await repo.findById(t.owner, t.id)) ?? inserted;
  }

  /** The JPEG served for a poster, or null when its image is gone. */
  async function bytesOf(t: StoredThumbnail): Promise<Buffer | null> {
    if (t.type !== 'SIDECAR') return readOrNull(storedPath(t));
    const source = await sidecarPath(t);
    if (!source || !(await isFile(source))) return null;
    const edge = await currentEdge();
    const cache = sidecarCachePath(t, edge);
    const cached = await readOrNull(cache);
    if (cached) return cached;
    const raw = await readOrNull(source);
    if (!raw) return null;
    try {
      const image = await makeThumbnail(raw, { maxEdge: edge, format: 'jpeg' });
      await removeFiles(t);
      await writeAtomically(cache, image.bytes);
      return image.bytes;
    } catch (e) {
      log?.warn({ thumbnail: t.id, url: t.url, err: e }, 'Sidecar image cannot be decoded');
      return null;
    }
  }

  /** The selected poster's bytes, after housekeeping if it is missing. */
  async function selectedBytes(owner: ThumbnailOwner, ownerId: string): Promise<Buffer | null> {
    let list = await repo.findAllByOwner(owner, ownerId);
    for (let attempt = 0; attempt < 3 && list.length > 0; attempt++) {
      const selected = list.find((t) => t.selected);
      if (selected) {
        const bytes = await bytesOf(selected);
        if (bytes) return bytes;
      }
      list = await housekeeping(owner, ownerId);
    }
    return null;
  }

  async function stored(
    owner: ThumbnailOwner,
    ownerId: string,
    type: StoredThumbnailType,
    image: EncodedImage,
    preference: Preference,
    seriesId?: string,
  ): Promise<StoredThumbnail> {
    const t: StoredThumbnail = {
      id: newId(),
      owner,
      ownerId,
      type,
      url: null,
      selected: false,
      mediaType: image.mediaType,
      fileSize: image.bytes.length,
      width: image.width,
      height: image.height,
      createdDate: '',
      lastModifiedDate: '',
    };
    // Written in place, not through a temporary file and a rename (one file operation less per poster on libuv's
    // four threads, issue 18): the name is a new id, and nothing reads it before `add` commits its row, after the
    // write. A write cut short leaves a file without a row, as a temporary file would.
    await mkdir(folderOf(t), { recursive: true });
    await writeFile(storedPath(t), image.bytes);
    return add(t, preference, seriesId);
  }

  /** The image a generated poster is made from (engine.md §7.1), or null when the book has none. */
  async function coverSource(book: BookForThumbnail): Promise<Uint8Array | null> {
    const file = await files.pathOf(book);
    if (!file) return null;
    const mediaType = book.mediaType ?? '';
    if (mediaType === MediaTypes.pdf) {
      const p = book.firstPage;
      // Rendered only as large as the poster needs: its shorter side at the poster's longest edge.
      const dimension = p?.width && p.height ? { width: p.width, height: p.height } : undefined;
      return renderPdf(file, dimension, await currentEdge());
    }
    if (mediaType === MediaTypes.epub) return (await getEpubCover(file))?.bytes ?? null;
    const reader = readerFor(mediaType);
    if (!reader || !book.firstPage) return null;
    return reader.read(file, book.firstPage.fileName);
  }

  /**
   * A poster from the first of the next pages of an archive that decodes, when the first page's image cannot be
   * decoded although its header can (a damaged AVIF, a JPEG XL libvips cannot read). Komga then has no poster; a
   * READY book showing pages should have one (issue 11, fuzzing).
   */
  async function posterFromLaterPages(book: BookForThumbnail): Promise<EncodedImage | null> {
    const reader = readerFor(book.mediaType ?? '');
    const file = reader ? await files.pathOf(book) : null;
    if (!reader || !file) return null;
    for (const name of await repo.laterPageNames(book.id, POSTER_FALLBACK_PAGES)) {
      try {
        return await makeThumbnail(await reader.read(file, name), { maxEdge: await currentEdge(), format: 'jpeg' });
      } catch (e) {
        log?.warn({ bookId: book.id, page: name, err: e }, 'Page cannot make a poster either');
      }
    }
    return null;
  }

  /** An upload checked as an image (else 415) and stored as JPEG. */
  async function decodeUpload(bytes: Uint8Array): Promise<EncodedImage> {
    const type = detectBuffer(bytes.subarray(0, SNIFF_BYTES));
    if (!type.startsWith('image/')) throw new QuireError(415, `Not an image: ${type}`);
    try {
      return await makeThumbnail(bytes, { maxEdge: UPLOAD_MAX_EDGE, format: 'jpeg' });
    } catch (e) {
      if (e instanceof UnsupportedImageError) throw new QuireError(415, `Unsupported image: ${type}`);
      throw e;
    }
  }

  /**
   * Local artwork candidates in a folder, sorted by name (Komga keeps the unspecified directory listing order).
   * A candidate that links out of the library root is skipped.
   */
  async function artworkIn(libraryId: string, folder: string, matches: (base: string) => boolean): Promise<string[]> {
    const root = await files.realRoot(libraryId);
    if (!root) return [];
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return [];
    }
    const found: string[] = [];
    // By base name first, so that `Book.png` comes before `Book-2.png`.
    const stem = (n: string) => basename(n, extname(n));
    names.sort((a, b) => naturalCompare(stem(a), stem(b)) || naturalCompare(a, b));
    for (const name of names) {
      const ext = extname(name).slice(1).toLowerCase();
      if (!ARTWORK_EXTENSIONS.has(ext) || !matches(basename(name, extname(name)))) continue;
      const path = join(folder, name);
      if ((await isFile(path)) && (await realPathInside(root, path))) found.push(path);
    }
    return found;
  }

  /** Sidecar rows for these files; the first one proposed as selected (engine.md §7.1-7.2). */
  async function importArtwork(owner: ThumbnailOwner, ownerId: string, files: readonly string[]): Promise<void> {
    const urls = new Set(files.map((f) => pathToFileURL(f).href));
    const stale = (await repo.findAllByOwner(owner, ownerId)).filter(
      (t) => t.type === 'SIDECAR' && !urls.has(t.url ?? ''),
    );
    if (stale.length > 0) {
      await repo.delete(
        owner,
        stale.map((t) => t.id),
      );
      await Promise.all(stale.map(removeFiles));
      for (const t of stale) await emit(t, 'Deleted', t.selected);
    }
    const edge = await currentEdge();
    let first = true;
    for (const file of files) {
      const t = await sidecar(owner, ownerId, file, edge);
      if (!t) continue;
      await add(t, first ? 'IF_NONE_OR_GENERATED' : 'NO');
      first = false;
    }
    await housekeeping(owner, ownerId);
  }

  /** A sidecar poster row, its resized JPEG written; null when the file is not a decodable image. */
  async function sidecar(
    owner: ThumbnailOwner,
    ownerId: string,
    file: string,
    edge: number,
  ): Promise<StoredThumbnail | null> {
    try {
      const raw = await readFile(file);
      const mediaType = detectBuffer(raw.subarray(0, SNIFF_BYTES));
      if (!mediaType.startsWith('image/')) return null;
      const dims = imageDimensions(raw) ?? { width: 0, height: 0 };
      const t: StoredThumbnail = {
        id: newId(),
        owner,
        ownerId,
        type: 'SIDECAR',
        url: pathToFileURL(file).href,
        selected: false,
        mediaType,
        fileSize: raw.length,
        width: dims.width,
        height: dims.height,
        createdDate: '',
        lastModifiedDate: '',
      };
      const image = await makeThumbnail(raw, { maxEdge: edge, format: 'jpeg' });
      await writeAtomically(sidecarCachePath(t, edge), image.bytes);
      return t;
    } catch (e) {
      log?.warn({ file, err: e }, 'Local artwork skipped: not a readable image');
      return null;
    }
  }

  async function thumbnailOf(owner: ThumbnailOwner, ownerId: string, thumbnailId: string) {
    const t = await repo.findById(owner, thumbnailId);
    if (!t) throw notFound();
    if (t.ownerId !== ownerId) throw badRequest(`Thumbnail does not belong to this ${owner}`);
    return t;
  }

  return {
    /** 404 if the book does not exist, 403 if the user may not see it (api.md §2.10). */
    async checkBookAccess(user: ContentViewer, bookId: string): Promise<void> {
      const facts = await repo.visibilityOfBook(bookId);
      if (!facts) throw notFound();
      if (accessTo(user, facts) !== 'ok') throw forbidden();
    },

    async checkSeriesAccess(user: ContentViewer, seriesId: string): Promise<void> {
      const facts = await repo.visibilityOfSeries(seriesId);
      if (!facts) throw notFound();
      if (accessTo(user, facts) !== 'ok') throw forbidden();
    },

    list: (owner: ThumbnailOwner, ownerId: string) => repo.findAllByOwner(owner, ownerId),

    /** The selected book poster as JPEG, or null (no poster). */
    bookPoster: (bookId: string) => selectedBytes('book', bookId),

    /**
     * The series poster for this user (engine.md §7.2): the selected series poster, else the poster of
     * the book the library's `seriesCover` rule picks. Null when there is none.
     */
    async seriesPoster(seriesId: string, userId: string): Promise<Buffer | null> {
      const series = await repo.findSeries(seriesId);
      if (!series) return null;
      const own = await selectedBytes('series', seriesId);
      if (own) return own;
      const first = () => repo.coverBookId(seriesId, { last: false });
      const last = () => repo.coverBookId(seriesId, { last: true });
      const unread = () => repo.coverBookId(seriesId, { last: false, unreadFor: userId });
      let bookId: string | undefined;
      switch (series.seriesCover) {
        case 'LAST':
          bookId = await last();
          break;
        case 'FIRST_UNREAD_OR_FIRST':
          bookId = (await unread()) ?? (await first());
          break;
        case 'FIRST_UNREAD_OR_LAST':
          bookId = (await unread()) ?? (await last());
          break;
        default:
          bookId = await first();
      }
      return bookId ? selectedBytes('book', bookId) : null;
    },

    /** One poster's JPEG (`/thumbnails/{id}`); null when unknown, of another owner, or its image is gone. */
    async thumbnailBytes(owner: ThumbnailOwner, ownerId: string, thumbnailId: string): Promise<Buffer | null> {
      const t = await repo.findById(owner, thumbnailId);
      if (!t || t.ownerId !== ownerId) return null;
      const bytes = await bytesOf(t);
      if (!bytes) await housekeeping(owner, ownerId);
      return bytes;
    },

    /**
     * A book's poster image made from its cover's bytes at the current size, started at once: the analysis starts
     * it when it meets the first page and hands the result to {@link generateForBook} once the book is stored, so
     * that libvips decodes the page while the rest of the book is still being checked (issue 18).
     */
    async makeBookPoster(cover: Uint8Array): Promise<EncodedImage> {
      return makeThumbnail(cover, { maxEdge: await currentEdge(), format: 'jpeg' });
    },

    /**
     * Task GenerateBookThumbnail: a new GENERATED poster at the current size, replacing the previous one.
     * Unknown books, books not READY and books without a cover image are skipped (null). `image`: the poster
     * {@link makeBookPoster} is making from the first page's bytes when the caller has them (the analysis that just
     * read them), instead of reading the book; when it fails, the next pages are tried.
     */
    async generateForBook(
      bookId: string,
      opts: { image?: Promise<EncodedImage> } = {},
    ): Promise<StoredThumbnail | null> {
      const book = await repo.findBook(bookId);
      if (!book) return null;
      if (book.mediaStatus !== 'READY') {
        log?.debug({ bookId, status: book.mediaStatus }, 'Book not ready: no poster generated');
        return null;
      }
      let made = opts.image;
      if (!made) {
        let source: Uint8Array | null;
        try {
          source = await coverSource(book);
        } catch (e) {
          log?.warn({ bookId, err: e }, 'Cover image cannot be read: no poster generated');
          return null;
        }
        if (!source) {
          log?.warn({ bookId }, 'Book has no cover image: no poster generated');
          return null;
        }
        made = makeThumbnail(source, { maxEdge: await currentEdge(), format: 'jpeg' });
      }
      let image: EncodedImage | null;
      try {
        image = await made;
      } catch (e) {
        log?.warn({ bookId, err: e }, 'Cover image cannot be decoded: trying the next pages');
        image = await posterFromLaterPages(book);
      }
      if (!image) return null;
      return stored('book', bookId, 'GENERATED', image, 'IF_NONE_OR_GENERATED', book.seriesId);
    },

    /**
     * PUT /books/thumbnails (engine.md §7.1): queues FindBookThumbnailsToRegenerate at the lowest priority, for
     * every book or only those whose generated poster is smaller than the current size.
     */
    async queueRegeneration(forBiggerResultOnly: boolean): Promise<void> {
      await deps.tasks.submit([{ kind: 'FindBookThumbnailsToRegenerate', forBiggerResultOnly }], PRIORITY.LOWEST);
    },

    /** Task FindBookThumbnailsToRegenerate: every book, or those whose generated poster is smaller. */
    async booksToRegenerate(forBiggerResultOnly: boolean): Promise<string[]> {
      return forBiggerResultOnly ? repo.bookIdsWithGeneratedSmallerThan(await currentEdge()) : repo.allBookIds();
    },

    /** Task RefreshBookLocalArtwork: `<book name>(-n).{png,jpg,…}` beside the book (library option). */
    async refreshBookLocalArtwork(bookId: string): Promise<void> {
      const book = await repo.findBook(bookId);
      if (!book || !(await repo.importLocalArtwork(book.libraryId))) return;
      const file = safePath(book.url);
      if (!file) return;
      const bookBase = basename(file, extname(file));
      const pattern = new RegExp(`^${escapeRegExp(bookBase)}(-\\d+)?$`, 'i');
      await importArtwork('book', bookId, await artworkIn(book.libraryId, dirname(file), (base) => pattern.test(base)));
    },

    /** Task RefreshSeriesLocalArtwork: `{cover,default,folder,poster,series}.{png,jpg,…}`; not for oneshots. */
    async refreshSeriesLocalArtwork(seriesId: string): Promise<void> {
      const series = await repo.findSeries(seriesId);
      if (!series || series.oneshot || !series.importLocalArtwork) return;
      const folder = safePath(series.url);
      if (!folder) return;
      await importArtwork(
        'series',
        seriesId,
        await artworkIn(series.libraryId, folder, (base) => SERIES_ARTWORK_NAMES.has(base.toLowerCase())),
      );
    },

    /** An admin's upload (api.md §3.2-3.3): 404 unknown owner, 400 oneshot series, 415 not an image. */
    async upload(owner: ThumbnailOwner, ownerId: string, bytes: Uint8Array, selected: boolean) {
      if (owner === 'book') {
        if (!(await repo.findBook(ownerId))) throw notFound();
      } else {
        const series = await repo.findSeries(ownerId);
        if (!series) throw notFound();
        if (series.oneshot) throw badRequest('Cannot upload a poster for a oneshot series');
      }
      const image = await decodeUpload(bytes);
      return stored(owner, ownerId, 'USER_UPLOADED', image, selected ? 'YES' : 'NO');
    },

    /** PUT …/thumbnails/{id}/selected: 404 unknown poster, 400 poster of another owner. */
    async select(owner: ThumbnailOwner, ownerId: string, thumbnailId: string): Promise<void> {
      const t = await thumbnailOf(owner, ownerId, thumbnailId);
      await repo.markSelected(owner, ownerId, t.id);
      await emit(t, 'Added', true);
    },

    /** DELETE …/thumbnails/{id}: only uploaded posters; the next one is selected by precedence. */
    async delete(owner: ThumbnailOwner, ownerId: string, thumbnailId: string): Promise<void> {
      const t = await thumbnailOf(owner, ownerId, thumbnailId);
      if (t.type !== 'USER_UPLOADED') throw badRequest('Only uploaded thumbnails can be deleted');
      // The next poster is selected in the same transaction, so that a reader never finds none selected.
      const next = await deps.uow.run(async ({ thumbnails: r }) => {
        await r.delete(owner, [t.id]);
        const remaining = await r.findAllByOwner(owner, ownerId);
        if (remaining.some((x) => x.selected)) return undefined;
        const b = best(remaining);
        if (b) await r.markSelected(owner, ownerId, b.id);
        return b;
      });
      await removeFiles(t);
      await emit(t, 'Deleted', t.selected);
      if (next) await emit(next, 'Added', true);
      await housekeeping(owner, ownerId);
    },

    /** {@link deleteThumbnailFiles} on this data directory. */
    deleteFiles: (ids: { bookIds?: readonly string[]; seriesIds?: readonly string[] }) =>
      deleteThumbnailFiles(dataDir, ids),
  };
}

/** A file: URL as a path; null for anything else. */
function safePath(url: string): string | null {
  try {
    return url.startsWith('file:') ? fileURLToPath(url) : null;
  } catch {
    return null;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
