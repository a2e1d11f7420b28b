import { extname } from 'node:path';
import type { EventBus } from '../events/bus.js';
import type { MediaRepository } from '../domain/ports.js';
import type { MediaAnalysis, MediaStatusValue } from '../domain/media.js';
import { readerFor } from '../media/archives/index.js';
import { CANONICAL_EXTENSIONS, detectFile, MediaTypes } from '../media/detect.js';
import { analyzeEpubOffThread, type EpubAnalysis } from '../media/epub/index.js';
import { hashBytes, hashFileBytes } from '../media/hash.js';
import { isPage, pagesOf } from '../media/pages.js';
import { naturalCompare } from '../domain/natural-sort.js';
import { MediaLimitError } from '../media/limits.js';
import type { PdfInfo, PdfService } from '../media/pdf/index.js';
import { MediaError } from '../media/types.js';
import type { EncodedImage } from '../media/images.js';
import { SpareBuffers } from '../media/spare-buffers.js';
import { comicInfoEntryOf, isComicInfoCandidate } from '../metadata/comicinfo.js';
import type { MetadataRefresh } from '../metadata/metadata-refresh.js';
import { BOOK_METADATA_PATCH_CAPABILITIES, PRIORITY, type Task } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import { pagesToHash } from './book-hasher.js';
import type { LibraryFiles } from './library-files.js';
import type { Thumbnails } from './thumbnails.js';

/**
 * The largest first page kept from the listing for the poster: it is held outside the buffer budget until the
 * poster is made. A larger one is read again by the poster task.
 */
const COVER_KEEP_BYTES = 32 * 1024 * 1024;
/**
 * The largest ComicInfo.xml handed from the analysis to the metadata refresh (a few kB in practice); a larger one
 * the refresh reads from the archive, within the markup limit.
 */
const COMICINFO_KEEP_BYTES = 1024 * 1024;

/**
 * What the first page is copied into for the poster, one per task runner on a machine of two cores: a fresh copy
 * per book outlived the young generation, and 300 books' copies waiting for a full collection were ~50 MB of the
 * import's peak RSS (issue 18).
 */
const coverBuffers = new SpareBuffers(2, 4 * 1024 * 1024, { analysis: true });

/** The first page of a book as the analysis read it, copied into `buffer` (from {@link coverBuffers}). */
interface Cover {
  name: string;
  bytes: Buffer;
  buffer: Buffer;
  /** Its poster being made; the buffer goes back to the spares when libvips is done with it. */
  poster?: Promise<EncodedImage>;
}

function copyCover(name: string, bytes: Buffer): Cover {
  const buffer = coverBuffers.take(bytes.length);
  bytes.copy(buffer);
  return { name, bytes: buffer.subarray(0, bytes.length), buffer };
}

/** A cover no poster is made from: its buffer is free again at once. */
function dropCover(cover: Cover): void {
  if (!cover.poster) coverBuffers.giveBack(cover.buffer);
}

/** What an EPUB analysis keeps in `media.extension` (engine.md §4.3). */
export interface EpubExtension {
  toc: EpubAnalysis['toc'];
  landmarks: EpubAnalysis['landmarks'];
  pageList: EpubAnalysis['pageList'];
  isFixedLayout: boolean;
  positions: EpubAnalysis['positions'];
  coverPath: string | null;
}

export type MediaProfile = 'DIVINA' | 'PDF' | 'EPUB';

/** The reading profile of an analysed media type; null when nothing reads it. */
export function mediaProfileOf(mediaType: string | null): MediaProfile | null {
  if (!mediaType) return null;
  if (mediaType === MediaTypes.pdf) return 'PDF';
  if (mediaType === MediaTypes.epub) return 'EPUB';
  return readerFor(mediaType) ? 'DIVINA' : null;
}

/**
 * Codes that mean "Quire cannot read this kind of file" (UNSUPPORTED), as opposed to a damaged one (ERROR).
 * Komga: encrypted or multi-volume RAR → UNSUPPORTED; Quire applies ERR_1002 to encrypted ZIP and 7z too
 * (Komga: an encrypted ZIP lists no page → ERROR ERR_1006).
 */
const UNSUPPORTED_CODES = new Set(['ERR_1001', 'ERR_1002', 'ERR_1003', 'ERR_1004']);
/** Outer failures for which Komga leaves the media type unset (engine.md §4.1). */
const OUTER_CODES = new Set(['ERR_1000', 'ERR_1005', 'ERR_1018']);

const failed = (status: MediaStatusValue, mediaType: string | null, comment: string): MediaAnalysis => ({
  status,
  mediaType,
  comment,
  pageCount: 0,
  epubDivinaCompatible: false,
  epubIsKepub: false,
  extension: null,
  pages: [],
  files: [],
});

function fromError(e: unknown, detected: string | null): MediaAnalysis {
  if (e instanceof MediaLimitError) return failed('ERROR', detected, e.comment);
  let code = 'ERR_1005';
  if (e instanceof MediaError) code = e.code;
  else {
    const errno = (e as { code?: unknown }).code;
    if (errno === 'ENOENT' || errno === 'ENOTDIR') code = 'ERR_1018';
    else if (errno === 'EACCES' || errno === 'EPERM') code = 'ERR_1000';
  }
  const status = UNSUPPORTED_CODES.has(code) ? 'UNSUPPORTED' : 'ERROR';
  return failed(status, OUTER_CODES.has(code) ? null : detected, code);
}

/**
 * Numbers of the PDF pages PDFium could not load (it gives them no size), the first 20 only: such a page cannot be
 * rendered, and the pages of a PDF cannot be renumbered around it (page n is the file's page n), so the book is an
 * ERROR with `ERR_1007 [numbers]` rather than READY with pages that answer 500 (issue 11).
 */
function unloadablePdfPages(info: PdfInfo): number[] {
  const numbers: number[] = [];
  info.pages.forEach((p, i) => {
    if (numbers.length < 20 && !(p.width > 0 && p.height > 0)) numbers.push(i + 1);
  });
  return numbers;
}

/**
 * AnalyzeBook (engine.md §4): the type from magic bytes, then pages and other entries per profile,
 * status READY / ERROR / UNSUPPORTED with the spec's codes. File I/O only; {@link analyzeAndPersist}
 * stores the result.
 */
export class BookAnalyzer {
  constructor(
    private readonly d: {
      media: MediaRepository;
      pdf: PdfService;
      events: EventBus;
      files: LibraryFiles;
      /** Where analyses asked for through the API are queued. */
      tasks: TaskEmitter;
      /** Makes a book's poster from its first page as analysis read it; without it, a poster task is queued. */
      posters?: Pick<Thumbnails, 'generateForBook' | 'makeBookPoster'>;
      /** Given a ZIP's ComicInfo.xml as analysis read it, for the metadata refresh that follows. */
      comicInfo?: Pick<MetadataRefresh, 'rememberComicInfo'>;
      logger?: { warn(obj: object, msg: string): void };
      now?: () => Date;
    },
  ) {}

  /** POST /books/{id}/analyze, /series/{id}/analyze: these books analysed again, at high priority (api.md §3.2). */
  async queueAnalysis(books: readonly { id: string; seriesId: string }[]): Promise<void> {
    await this.d.tasks.submit(
      books.map((b): Task => ({ kind: 'AnalyzeBook', bookId: b.id, seriesId: b.seriesId })),
      PRIORITY.HIGH,
    );
  }

  async analyze(file: string, opts: { analyzeDimensions: boolean }): Promise<MediaAnalysis> {
    return (await this.analyzeOnce(file, opts)).analysis;
  }

  /**
   * {@link analyze}, and what else the bytes read by the listing (a ZIP's) give: with `poster` the first page's
   * poster, made from the bytes the listing read, with `hashPages` every page's hash (engine.md §5.3), and with `hashFile` the file hash (§5.1) when the
   * listing read the file whole, so that neither the poster nor the hashing opens the file again to read the same
   * bytes (issue 18).
   */
  private async analyzeOnce(
    file: string,
    opts: {
      analyzeDimensions: boolean;
      poster?: boolean;
      hashPages?: boolean;
      hashFile?: boolean;
      comicInfo?: boolean;
    },
  ): Promise<{
    analysis: MediaAnalysis;
    poster?: Promise<EncodedImage>;
    pageHashes?: Map<string, string>;
    fileHash?: string;
    /** A ZIP's ComicInfo entry (`comicInfoEntryOf`'s choice among its files) and its bytes, with `comicInfo`. */
    comicInfo?: { entry: string; bytes: Buffer };
  }> {
    let detected: string;
    try {
      detected = await detectFile(file);
    } catch (e) {
      return { analysis: fromError(e, null) };
    }
    const dotEpub = extname(file).toLowerCase() === '.epub';
    try {
      // A `.epub` detected as a plain ZIP is still read as an EPUB when its `mimetype` entry says so;
      // otherwise analyzeEpub fails with ERR_1032 (engine.md §4.1).
      if (detected === MediaTypes.epub || (dotEpub && detected === MediaTypes.zip)) {
        return { analysis: await this.epub(file, opts) };
      }
      if (dotEpub) return { analysis: failed('ERROR', detected, 'ERR_1032') };
      if (detected === MediaTypes.pdf) return { analysis: await this.pdf(file, opts) };
      const reader = readerFor(detected);
      if (!reader) return { analysis: failed('UNSUPPORTED', detected, 'ERR_1001') };
      // Every page checked the way serving will read it (issue 11: fuzzed books were READY with pages answering
      // 500): one that does not read whole, fails its checksum or has no readable image header comes back untyped,
      // reported as ERR_1007 [names] (Komga's rule for an entry that fails to read, engine.md §4.2), and a book
      // left without pages is ERROR ERR_1006.
      // The first page in natural order among those read whole so far (kept within COVER_KEEP_BYTES), and its
      // poster being made (issue 18: libvips decodes it while the listing checks the other pages and the file is
      // hashed). Only the first candidate's poster is started early: in an archive stored in reverse order every
      // page would replace the one before, and each would be decoded for nothing; a later one is made at the end.
      const keepsCover = opts.poster === true && this.d.posters !== undefined;
      let cover = undefined as Cover | undefined;
      const pageHashes = new Map<string, string>();
      const comicInfos = new Map<string, Buffer>();
      let fileHash: string | undefined;
      const entries = await reader.entries(file, {
        dimensions: opts.analyzeDimensions,
        verify: true,
        ...(opts.hashFile
          ? { onFileBytes: async (bytes: Buffer) => void (fileHash = await hashFileBytes(bytes)) }
          : {}),
        onVerified: (entry, bytes) => {
          if (!isPage(entry)) {
            // a copy: the listing reuses its read buffers
            if (opts.comicInfo && isComicInfoCandidate(entry.name) && bytes.length <= COMICINFO_KEEP_BYTES)
              comicInfos.set(entry.name, Buffer.from(bytes));
            return;
          }
          if (opts.hashPages) pageHashes.set(entry.name, hashBytes(bytes));
          if (!keepsCover || bytes.length > COVER_KEEP_BYTES) return;
          // a copy: the listing reuses its read buffers
          if (cover && naturalCompare(entry.name, cover.name) >= 0) return;
          const first = !cover;
          if (cover) dropCover(cover);
          cover = copyCover(entry.name, bytes);
          if (first) cover.poster = this.startPoster(cover);
        },
      });
      const pages = pagesOf(entries);
      const others = entries.filter((e) => !pages.includes(e));
      const files = others.map((e) => ({ fileName: e.name, mediaType: e.mediaType, subType: null, fileSize: e.size }));
      if (pages.length === 0) return { analysis: { ...failed('ERROR', detected, 'ERR_1006'), files } };
      const untyped = others.filter((e) => !e.mediaType);
      const analysis: MediaAnalysis = {
        status: 'READY',
        mediaType: detected,
        comment: untyped.length > 0 ? `ERR_1007 [${untyped.map((e) => e.name).join(', ')}]` : null,
        pageCount: pages.length,
        epubDivinaCompatible: false,
        epubIsKepub: false,
        extension: null,
        pages: pages.map((p) => ({
          fileName: p.name,
          mediaType: p.mediaType!,
          width: p.width ?? null,
          height: p.height ?? null,
          fileSize: p.size,
        })),
        files,
      };
      // the page with the lowest name may have been too large to keep: then the poster task reads it
      if (cover && cover.name !== pages[0]!.name) {
        dropCover(cover);
        cover = undefined;
      }
      const comicInfoEntry = comicInfoEntryOf(files.map((f) => f.fileName));
      const comicInfoBytes = comicInfoEntry ? comicInfos.get(comicInfoEntry) : undefined;
      return {
        analysis,
        ...(cover ? { poster: cover.poster ?? this.startPoster(cover) } : {}),
        ...(comicInfoEntry && comicInfoBytes ? { comicInfo: { entry: comicInfoEntry, bytes: comicInfoBytes } } : {}),
        ...(pageHashes.size > 0 ? { pageHashes } : {}),
        ...(fileHash ? { fileHash } : {}),
      };
    } catch (e) {
      return { analysis: fromError(e, detected) };
    }
  }

  private async epub(file: string, opts: { analyzeDimensions: boolean }): Promise<MediaAnalysis> {
    const a = await analyzeEpubOffThread(file, { analyzeDimensions: opts.analyzeDimensions });
    const extension: EpubExtension = {
      toc: a.toc,
      landmarks: a.landmarks,
      pageList: a.pageList,
      isFixedLayout: a.isFixedLayout,
      positions: a.positions,
      coverPath: a.coverPath,
    };
    return {
      status: 'READY',
      mediaType: MediaTypes.epub,
      comment: a.comment || null,
      pageCount: a.pageCount,
      epubDivinaCompatible: a.divinaCompatible,
      epubIsKepub: a.isKepub,
      extension: JSON.stringify(extension),
      pages: a.divinaPages.map((p) => ({
        fileName: p.fileName,
        mediaType: p.mediaType,
        width: p.width ?? null,
        height: p.height ?? null,
        fileSize: p.fileSize,
      })),
      files: a.resources.map((r) => ({
        fileName: r.fileName,
        mediaType: r.mediaType,
        subType: r.subType,
        fileSize: r.fileSize,
      })),
    };
  }

  /** PDF pages are named "1"…"n" with an empty media type (rendered on demand), as Komga stores them. */
  private async pdf(file: string, opts: { analyzeDimensions: boolean }): Promise<MediaAnalysis> {
    const info = await this.d.pdf.info(file);
    if (info.pageCount === 0) return failed('ERROR', MediaTypes.pdf, 'ERR_1006');
    const unloadable = unloadablePdfPages(info);
    if (unloadable.length > 0) return failed('ERROR', MediaTypes.pdf, `ERR_1007 [${unloadable.join(', ')}]`);
    return {
      status: 'READY',
      mediaType: MediaTypes.pdf,
      comment: null,
      pageCount: info.pageCount,
      epubDivinaCompatible: false,
      epubIsKepub: false,
      extension: null,
      pages: info.pages.map((p, i) => ({
        fileName: String(i + 1),
        mediaType: '',
        width: opts.analyzeDimensions ? p.width : null,
        height: opts.analyzeDimensions ? p.height : null,
        fileSize: null,
      })),
      files: [],
    };
  }

  /**
   * Starts making the poster from a cover (the analysis keeps covers only with a poster maker). A poster started
   * for a book that turns out not READY, or for a page that is not the first after all, is dropped unawaited: its
   * failure must not surface as an unhandled rejection. Once libvips is done, the cover's buffer is a spare again.
   */
  private startPoster(cover: Cover): Promise<EncodedImage> {
    const poster = this.d.posters!.makeBookPoster(cover.bytes);
    void poster.catch(() => undefined).then(() => coverBuffers.giveBack(cover.buffer));
    return poster;
  }

  /**
   * The book's poster made from the first page the analysis read, where Komga queues GenerateBookThumbnail: that
   * task would open the archive again for the same bytes. False when there is no such page or it failed (the
   * task is queued then, and tries the next pages when this one does not decode).
   */
  private async posterFrom(bookId: string, poster: Promise<EncodedImage> | undefined): Promise<boolean> {
    if (!poster || !this.d.posters) return false;
    try {
      return (await this.d.posters.generateForBook(bookId, { image: poster })) !== null;
    } catch (err) {
      this.d.logger?.warn({ bookId, err }, 'Could not make the poster from the analysed first page');
      return false;
    }
  }

  /**
   * Analyses a book and stores the result (page hashes of unchanged pages kept), then emits BookChanged.
   * Returns the follow-ups (engine.md §8.3): thumbnail and metadata refresh when READY, and the extension repair
   * or CBZ conversion the library asks for. Unknown id → none.
   */
  async analyzeAndPersist(bookId: string): Promise<Task[]> {
    const target = await this.d.media.analysisTarget(bookId);
    if (!target) return [];
    // Missing, or linking out of the library root since the scan: "file not found".
    const file = await this.d.files.pathOf(target);
    const { analysis, poster, pageHashes, fileHash, comicInfo } = file
      ? await this.analyzeOnce(file, {
          analyzeDimensions: target.analyzeDimensions,
          poster: true,
          hashPages: target.hashPages,
          comicInfo: target.importComicInfo && this.d.comicInfo !== undefined,
          // HashBook's rule (engine.md §5.1): a book of a library that hashes files, with no hash yet
          hashFile: target.hashFiles && target.fileHash === '',
        })
      : { analysis: failed('ERROR', null, 'ERR_1018') };
    await this.d.media.save(bookId, analysis, this.d.now?.() ?? new Date());
    // the file hash HashBook would read the file again for; that task, queued by the scan, then finds it set
    if (fileHash) await this.d.media.setFileHash(bookId, fileHash);
    // the pages HashBookPages hashes (first and last three) of a ZIP, from the bytes just read: that task then finds
    // nothing left to do, and no FindBooksWithMissingPageHash that ran before this analysis leaves them unhashed
    if (pageHashes && analysis.mediaType === MediaTypes.zip) {
      const hashes = pagesToHash(analysis.pages.length).flatMap((number) => {
        const hash = pageHashes.get(analysis.pages[number]!.fileName);
        return hash ? [{ number, hash }] : [];
      });
      await this.d.media.setPageHashes(bookId, hashes);
    }
    this.d.events.emit({
      type: 'BookChanged',
      data: { bookId, seriesId: target.seriesId, libraryId: target.libraryId },
    });
    if (analysis.status !== 'READY') return [];
    if (comicInfo) {
      // the book's file as the scan stored it, the key the refresh looks it up by (BookRecord's time is a number)
      const book = {
        id: bookId,
        url: target.url,
        fileSize: target.fileSize,
        fileLastModified: Date.parse(target.fileLastModified),
      };
      const appendVolume = target.importComicInfoSeriesAppendVolume;
      this.d.comicInfo!.rememberComicInfo(book, appendVolume, comicInfo.entry, comicInfo.bytes);
    }
    const next: Task[] = [
      ...((await this.posterFrom(bookId, poster)) ? [] : [{ kind: 'GenerateBookThumbnail' as const, bookId }]),
      {
        kind: 'RefreshBookMetadata',
        bookId,
        seriesId: target.seriesId,
        capabilities: [...BOOK_METADATA_PATCH_CAPABILITIES],
        // its barcode search waits for the analyses (tasks/definitions.ts, waitsForAnalyses)
        ...(target.importBarcodeIsbn ? { afterAnalyses: true } : {}),
      },
    ];
    // Komga waits for the next scan to repair or convert a new book; its type is known now.
    const ext = analysis.mediaType ? CANONICAL_EXTENSIONS[analysis.mediaType] : undefined;
    const current = extname(target.url).toLowerCase(); // the name in the library, not a link's target
    if (target.repairExtensions && ext && current !== `.${ext}` && current !== '.epub')
      next.push({ kind: 'RepairExtension', bookId, seriesId: target.seriesId });
    if (target.convertToCbz && (analysis.mediaType === MediaTypes.rar4 || analysis.mediaType === MediaTypes.rar5))
      next.push({ kind: 'ConvertBook', bookId, seriesId: target.seriesId });
    return next;
  }
}
