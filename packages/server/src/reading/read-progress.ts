/**
 * Read progress use cases (engine.md §13, api.md §3.2-3.3): mark a page or a whole book, mark a series read or
 * unread, Readium progression, and the Mihon/Tachiyomi helpers. Every change is announced to its user only
 * (ReadProgress* events, api.md §6).
 */
import type {
  R2ProgressionDto,
  R2ProgressionLocatorDto,
  TachiyomiReadProgressDto,
  TachiyomiReadProgressV2Dto,
} from '@quire/api';
import type { ReadProgressRepository, UnitOfWork } from '../domain/ports.js';
import type { AccessFacts, BookState, NewReadProgress, ProgressBook } from '../domain/read-progress.js';
import { badRequest, forbidden, invalid, notFound, QuireError } from '../domain/errors.js';
import { accessTo, type ContentViewer } from '../domain/restrictions.js';
import type { EventBus } from '../events/bus.js';
import { epubAnalysis, matchPosition, parseModified, resourceOf, toProgression, locatorOf } from './progression.js';

/** The caller: who the progress belongs to, and what the access rules read. */
export interface Reader extends ContentViewer {
  id: string;
}

/** The reading profile of a media type (engine.md §4.1). */
export type ProgressProfile = 'DIVINA' | 'PDF' | 'EPUB';

export interface ReadProgressDeps {
  progress: ReadProgressRepository;
  /** A batch of progress rows is saved whole. */
  uow: UnitOfWork;
  events: EventBus;
  /** library/book-analyzer's mediaProfileOf, given by the composition root. */
  profileOf: (mediaType: string | null) => ProgressProfile | null;
  now?: () => Date;
}

export class ReadProgressService {
  private readonly now: () => Date;

  constructor(private readonly d: ReadProgressDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** `PATCH /books/{id}/read-progress` (engine.md §13.2). */
  async update(reader: Reader, bookId: string, body: { page?: number | null; completed?: boolean | null }) {
    if (body.completed !== true && (body.page === undefined || body.page === null))
      throw invalid([{ fieldName: 'page', message: 'page must be specified if completed is false or null' }]);
    if (body.page !== undefined && body.page !== null && body.page < 1)
      throw invalid([{ fieldName: 'page', message: 'must be greater than 0' }]);
    const book = await this.visibleBook(reader, bookId);
    if (body.completed === true) return this.complete(reader.id, [book]);
    const page = body.page!;
    if (page > book.pageCount) throw pageOutOfRange(page, book.pageCount);
    let locator: unknown = null;
    if (this.d.profileOf(book.mediaType) === 'EPUB') {
      if (!book.epubDivinaCompatible) throw badRequest('epub book is not Divina compatible');
      locator = epubAnalysis(book).positions?.[page - 1] ?? null;
    }
    await this.save(reader.id, [
      {
        bookId: book.id,
        userId: reader.id,
        page,
        completed: page === book.pageCount,
        readDate: this.now().toISOString(),
        deviceId: '',
        deviceName: '',
        locator,
      },
    ]);
  }

  /** `DELETE /books/{id}/read-progress`. */
  async remove(reader: Reader, bookId: string): Promise<void> {
    const book = await this.visibleBook(reader, bookId);
    const existing = await this.d.progress.find(book.id, reader.id);
    if (!existing) return;
    await this.d.progress.delete([book.id], reader.id);
    this.d.events.emit({ type: 'ReadProgressDeleted', data: { bookId: book.id, userId: reader.id } });
  }

  /** `POST /series/{id}/read-progress`: every book not yet read becomes read (soft-deleted ones included). */
  async markSeriesRead(reader: Reader, seriesId: string): Promise<void> {
    await this.visibleSeries(reader, seriesId);
    const books = await this.d.progress.seriesBooks(seriesId, reader.id);
    await this.complete(
      reader.id,
      books.filter((b) => b.completed !== true),
    );
    this.d.events.emit({ type: 'ReadProgressSeriesChanged', data: { seriesId, userId: reader.id } });
  }

  /** `DELETE /series/{id}/read-progress`: every progress row of the series goes. */
  async markSeriesUnread(reader: Reader, seriesId: string): Promise<void> {
    await this.visibleSeries(reader, seriesId);
    const books = await this.d.progress.seriesBooks(seriesId, reader.id);
    const withProgress = books.filter((b) => b.completed !== null).map((b) => b.id);
    await this.d.progress.delete(withProgress, reader.id);
    for (const bookId of withProgress)
      this.d.events.emit({ type: 'ReadProgressDeleted', data: { bookId, userId: reader.id } });
    this.d.events.emit({ type: 'ReadProgressSeriesDeleted', data: { seriesId, userId: reader.id } });
  }

  /** `GET /books/{id}/progression`: null when the caller has no progress on the book. */
  async progression(reader: Reader, bookId: string): Promise<R2ProgressionDto | null> {
    const book = await this.visibleBook(reader, bookId);
    const p = await this.d.progress.find(book.id, reader.id);
    return p ? toProgression(p) : null;
  }

  /** `PUT /books/{id}/progression` (engine.md §13.5): 409 when not newer than what is stored. */
  async putProgression(reader: Reader, bookId: string, body: R2ProgressionDto): Promise<void> {
    const book = await this.visibleBook(reader, bookId);
    const modified = parseModified(body.modified);
    const existing = await this.d.progress.find(book.id, reader.id);
    if (existing && !(modified.getTime() > Date.parse(existing.readDate)))
      throw new QuireError(409, 'Progression is older than existing');
    const profile = this.d.profileOf(book.mediaType);
    if (!profile) throw badRequest('Media has no profile');
    const sent = locatorOf(body.locator);
    let page: number;
    let completed: boolean;
    let locator: R2ProgressionLocatorDto;
    if (profile === 'EPUB') {
      ({ page, completed, locator } = await this.epubProgress(book, sent));
    } else {
      const position = sent.locations?.position;
      if (typeof position !== 'number' || !Number.isInteger(position) || position < 1 || position > book.pageCount)
        throw pageOutOfRange(position ?? null, book.pageCount);
      page = position;
      completed = position === book.pageCount;
      locator = sent;
    }
    await this.save(reader.id, [
      {
        bookId: book.id,
        userId: reader.id,
        page,
        completed,
        readDate: modified.toISOString(),
        deviceId: body.device.id,
        deviceName: body.device.name,
        locator,
      },
    ]);
  }

  /** `GET /api/v2/series/{id}/read-progress/tachiyomi`: counts over every book of the series. */
  async tachiyomiSeries(reader: Reader, seriesId: string): Promise<TachiyomiReadProgressV2Dto> {
    await this.visibleSeries(reader, seriesId);
    const books = await this.d.progress.seriesBooks(seriesId, reader.id);
    const lastRead = leadingRead(books).at(-1);
    return {
      ...counts(books),
      lastReadContinuousNumberSort: lastRead?.numberSort ?? 0,
      maxNumberSort: books.length > 0 ? Math.max(...books.map((b) => b.numberSort)) : 0,
    };
  }

  /** `PUT /api/v2/series/{id}/read-progress/tachiyomi`: books up to `numberSort` become read. */
  async putTachiyomiSeries(reader: Reader, seriesId: string, lastNumberSortRead: number): Promise<void> {
    await this.visibleSeries(reader, seriesId);
    const books = await this.d.progress.seriesBooks(seriesId, reader.id);
    await this.complete(
      reader.id,
      books.filter((b) => b.completed !== true && b.numberSort <= lastNumberSortRead),
    );
  }

  /** `GET /readlists/{id}/read-progress/tachiyomi`, over the books of the list the caller may see. */
  async tachiyomiReadList(reader: Reader, readListId: string): Promise<TachiyomiReadProgressDto> {
    const books = await this.visibleReadListBooks(reader, readListId);
    return { ...counts(books), lastReadContinuousIndex: leadingRead(books).length };
  }

  /** `PUT /readlists/{id}/read-progress/tachiyomi`: the first `lastBookRead` books of the list become read. */
  async putTachiyomiReadList(reader: Reader, readListId: string, lastBookRead: number): Promise<void> {
    const books = await this.visibleReadListBooks(reader, readListId);
    await this.complete(
      reader.id,
      books.slice(0, Math.max(0, lastBookRead)).filter((b) => b.completed !== true),
    );
  }

  private async epubProgress(book: ProgressBook, sent: R2ProgressionLocatorDto) {
    const href = resourceOf(sent.href);
    const files = await this.d.progress.fileNames(book.id);
    if (!files.includes(href)) throw badRequest(`Resource does not exist in book: ${href}`);
    const progression = sent.locations?.progression;
    if (typeof progression !== 'number') throw badRequest('location.progression is required');
    const ext = epubAnalysis(book);
    if (!ext.positions) throw badRequest('Epub extension not found');
    const matched = matchPosition(ext.positions, ext.isFixedLayout === true, href, progression);
    // The client's totalProgression is not trusted (Kobo's can be wrong): the matched position's is stored.
    const total = matched.locations.totalProgression;
    const locator: R2ProgressionLocatorDto = {
      ...sent,
      type: matched.type,
      koboSpan: sent.koboSpan ?? matched.koboSpan ?? undefined,
      locations: { ...(sent.locations ?? { fragments: [] }), totalProgression: total },
    };
    if (locator.koboSpan === undefined) delete locator.koboSpan;
    return { page: Math.round(book.pageCount * total), completed: total >= 0.99, locator };
  }

  /** Marks books read at their last page. */
  private async complete(userId: string, books: readonly (ProgressBook | BookState)[]): Promise<void> {
    const readDate = this.now().toISOString();
    await this.save(
      userId,
      books.map((b) => ({
        bookId: b.id,
        userId,
        page: b.pageCount,
        completed: true,
        readDate,
        deviceId: '',
        deviceName: '',
        locator: null,
      })),
    );
  }

  private async save(userId: string, rows: NewReadProgress[]): Promise<void> {
    if (rows.length === 0) return;
    const now = this.now();
    await this.d.uow.run(({ readProgress }) => readProgress.save(rows, now));
    for (const r of rows) this.d.events.emit({ type: 'ReadProgressChanged', data: { bookId: r.bookId, userId } });
  }

  /** 404 when unknown, 403 when the caller may not see it (api.md §2.10). */
  private async visibleBook(reader: Reader, bookId: string): Promise<ProgressBook> {
    const book = await this.d.progress.book(bookId);
    if (!book) throw notFound();
    if (accessTo(reader, book.access) !== 'ok') throw forbidden();
    return book;
  }

  private async visibleSeries(reader: Reader, seriesId: string): Promise<AccessFacts> {
    const series = await this.d.progress.series(seriesId);
    if (!series) throw notFound();
    if (accessTo(reader, series) !== 'ok') throw forbidden();
    return series;
  }

  /** The list's books the caller may see; 404 when the list is unknown or shows him nothing. */
  private async visibleReadListBooks(reader: Reader, readListId: string): Promise<BookState[]> {
    if (!(await this.d.progress.readListExists(readListId))) throw notFound();
    const all = await this.d.progress.readListBooks(readListId, reader.id);
    const visible = all.filter((b) => accessTo(reader, b.access) === 'ok');
    if (visible.length === 0 && all.length > 0) throw notFound();
    if (all.length === 0 && isRestricted(reader)) throw notFound();
    return visible;
  }
}

/** A restricted caller does not see a read list with nothing visible in it, empty ones included (api.md §2.10). */
function isRestricted(reader: Reader): boolean {
  return (
    !(reader.roles.has('ADMIN') || reader.sharedAllLibraries) ||
    reader.ageRestriction !== null ||
    reader.labelsAllow.length > 0 ||
    reader.labelsExclude.length > 0
  );
}

function counts(books: readonly BookState[]) {
  const read = books.filter((b) => b.completed === true).length;
  const inProgress = books.filter((b) => b.completed === false).length;
  return {
    booksCount: books.length,
    booksReadCount: read,
    booksUnreadCount: books.length - read - inProgress,
    booksInProgressCount: inProgress,
  };
}

/** The leading run of read books (engine.md §13.2, "last read continuous"). */
function leadingRead(books: readonly BookState[]): BookState[] {
  const end = books.findIndex((b) => b.completed !== true);
  return end < 0 ? [...books] : books.slice(0, end);
}

const pageOutOfRange = (page: number | null, pageCount: number) =>
  badRequest(`Page argument (${page ?? 'null'}) must be within 1 and book page count (${pageCount})`);
