import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BookRepository, MediaRepository } from '../domain/ports.js';
import type { StoredPage } from '../domain/media.js';
import { duplicatePageDeleted } from '../domain/history.js';
import type { PageHashRepository, PageToRemove } from '../domain/page-hashes.js';
import type { EventBus } from '../events/bus.js';
import { MediaTypes } from '../media/detect.js';
import type { Task } from '../tasks/definitions.js';
import type { BookAnalyzer } from './book-analyzer.js';
import { writeCbz } from './book-converter.js';
import { syncFolder } from './file-transfer.js';
import { updatedTime } from './file-system-scanner.js';
import type { HistoryRecorder } from './history.js';
import type { LibraryFiles } from './library-files.js';

export interface PageRemovalLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** What a removal did: the follow-up tasks it calls for, and why it did nothing when it did nothing. */
export interface PageRemovalOutcome {
  removed: number;
  /** Why nothing was removed (the task logs it). */
  skipped?: string;
  next: Task[];
}

/** Why a rewritten archive was not put in place; the original is untouched. */
export class PageRemovalError extends Error {
  override name = 'PageRemovalError';
}

/**
 * RemoveHashedPages (engine.md §11.3): a CBZ rewritten without some of its pages. The new archive is written beside
 * the book as `.quire_page_removal_*.tmp`, flushed to disk, analysed again and compared with the pages that should
 * remain (same entry names and types, in order, and every other entry), and only then renamed over the book: a
 * process killed at any point leaves either the old file or the new one, never half of one. The book keeps its id,
 * metadata, read progress and posters; its pages are the new analysis (hashes carried over).
 *
 * Only ZIP books are rewritten (Komga's rule: RAR, 7z, EPUB and PDF are skipped with a reason). A book whose file
 * changed on disk since it was scanned is not rewritten: its new size and time are taken as a scan would and it is
 * analysed again first; a later request works from the new analysis.
 */
export class BookPageEditor {
  /** Books whose rewrite failed in this process: not retried after every scan (Komga's rule). */
  private readonly failed = new Set<string>();

  constructor(
    private readonly d: {
      media: MediaRepository;
      books: Pick<BookRepository, 'replaceFile'>;
      pageHashes: Pick<PageHashRepository, 'addDeleted'>;
      analyzer: Pick<BookAnalyzer, 'analyze'>;
      history: HistoryRecorder;
      events: EventBus;
      files: LibraryFiles;
      logger: PageRemovalLogger;
      now?: () => Date;
    },
  ) {}

  async removeHashedPages(bookId: string, requested: readonly PageToRemove[]): Promise<PageRemovalOutcome> {
    const outcome = await this.tryRemove(bookId, requested);
    if (outcome.skipped) this.d.logger.info({ bookId, reason: outcome.skipped }, 'Duplicate pages not removed');
    return outcome;
  }

  private async tryRemove(bookId: string, requested: readonly PageToRemove[]): Promise<PageRemovalOutcome> {
    const skip = (skipped: string, next: Task[] = []): PageRemovalOutcome => ({ removed: 0, skipped, next });
    const t = await this.d.media.analysisTarget(bookId);
    if (!t) return skip('the book no longer exists');
    if (this.failed.has(bookId)) return skip('an earlier removal from this book failed since the server started');
    if (t.mediaType !== MediaTypes.zip) return skip(`pages are only removed from ZIP books, not ${t.mediaType}`);
    if (t.status !== 'READY') return skip(`the book is not analysed (${t.status})`);
    if (requested.length === 0) return skip('no page was asked for');
    // Resolved inside the library root (links followed and checked): nothing outside a library is ever written.
    const path = await this.d.files.pathOf(t);
    if (!path) return skip('the book file is missing or outside its library');
    const onDisk = await stat(path);
    if (onDisk.size !== t.fileSize || updatedTime(onDisk, false) > Date.parse(t.fileLastModified)) {
      await this.d.books.replaceFile(
        bookId,
        {
          url: t.url,
          fileSize: onDisk.size,
          fileLastModified: updatedTime(onDisk, false),
          fileHash: '',
          fileHashKoreader: '',
        },
        this.now(),
      );
      return skip('the file changed since it was analysed: analysing it again first', [
        { kind: 'AnalyzeBook', bookId, seriesId: t.seriesId },
      ]);
    }

    const pages = await this.d.media.pages(bookId);
    // A page is named by its entry and hash, not its number: an earlier removal from the same book renumbers pages.
    const wanted = (p: StoredPage) =>
      requested.some((r) => r.hash === p.fileHash && r.fileName === p.fileName && r.mediaType === p.mediaType);
    const removed = pages.filter(wanted);
    const kept = pages.filter((p) => !wanted(p));
    if (removed.length !== new Set(requested.map((r) => `${r.hash}\u0000${r.fileName}`)).size)
      return skip('the book no longer has every page asked for');
    if (kept.length === 0) return skip('the book would have no page left');

    const others = await this.d.media.files(bookId);
    await removeLeftovers(dirname(path));
    const temp = join(dirname(path), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
    let analysis;
    try {
      await writeCbz(path, MediaTypes.zip, [...kept.map((p) => p.fileName), ...others.map((f) => f.fileName)], temp);
      const handle = await open(temp, 'r+');
      await handle.sync().finally(() => handle.close());
      analysis = await this.d.analyzer.analyze(temp, { analyzeDimensions: t.analyzeDimensions });
      const entries = (list: readonly { fileName: string; mediaType?: string | null }[]) =>
        list.map((e) => `${e.fileName}\u0000${e.mediaType ?? ''}`).join('\n');
      const newFiles = new Set(analysis.files.map((f) => f.fileName));
      const complete =
        analysis.status === 'READY' &&
        analysis.mediaType === MediaTypes.zip &&
        entries(analysis.pages) === entries(kept) &&
        others.every((f) => newFiles.has(f.fileName));
      if (!complete)
        throw new PageRemovalError(`The archive rewritten from ${path} does not hold every remaining page`);
      await rename(temp, path);
    } catch (e) {
      this.failed.add(bookId);
      await rm(temp, { force: true });
      throw e;
    }
    await syncFolder(dirname(path));

    const now = this.now();
    const written = await stat(path);
    // Media first: a process killed before the book row is updated finds a file newer than the row on the next
    // try, and analyses it again (above) instead of removing pages twice.
    await this.d.media.save(bookId, analysis, now);
    await this.d.books.replaceFile(
      bookId,
      {
        url: t.url,
        fileSize: written.size,
        fileLastModified: updatedTime(written, false),
        fileHash: '',
        fileHashKoreader: '',
      },
      now,
    );
    for (const [hash, count] of countBy(removed.map((p) => p.fileHash))) {
      await this.d.pageHashes.addDeleted(hash, count, now.toISOString());
    }
    const book = { bookId, seriesId: t.seriesId, libraryId: t.libraryId };
    for (const p of removed) {
      await this.d.history.record(duplicatePageDeleted(book, fileURLToPath(t.url), { ...p, number: p.number + 1 }));
    }
    this.d.events.emit({ type: 'BookChanged', data: { bookId, seriesId: t.seriesId, libraryId: t.libraryId } });
    const next: Task[] = removed.some((p) => p.number === 0) ? [{ kind: 'GenerateBookThumbnail', bookId }] : [];
    return { removed: removed.length, next };
  }

  private now(): Date {
    return this.d.now?.() ?? new Date();
  }
}

const TEMP_PREFIX = '.quire_page_removal_';
const TEMP_SUFFIX = '.tmp';

/**
 * Archives a killed process left half-written in this folder. Removals in one folder never run at once (their
 * tasks share the series' group), so any such file there is a leftover.
 */
async function removeLeftovers(folder: string): Promise<void> {
  for (const name of await readdir(folder)) {
    if (name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX)) await rm(join(folder, name), { force: true });
  }
}

const countBy = (values: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
};
