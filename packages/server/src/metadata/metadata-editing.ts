import type { BookMetadataUpdateDto, SeriesMetadataUpdateDto } from '@quire/api';
import type { BookRepository, MetadataRepository, SeriesRepository } from '../domain/ports.js';
import type { Author, BookMetadataChanges, SeriesMetadataChanges, WebLink } from '../domain/metadata.js';
import { sortKey } from '../domain/text.js';
import { invalid, notFound } from '../domain/errors.js';
import type { EventBus } from '../events/bus.js';
import { PRIORITY, type Task } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import { normalizeTerms } from './patch.js';
import { canonicalLanguage, isbn13FromInput, isCalendarDate, linkUrlProblem } from './validation.js';

/**
 * Metadata edits from the API (api.md §3.2-3.3, §4.1-4.2; engine.md §6.2; spec.md §5). Only the fields present
 * in the body change; `null` clears some fields and leaves the others as they are (see @quire/api metadata.ts).
 * Locks change only when the body sets them, as in Komga: clients that want an edit to survive the next
 * refresh send the lock with it.
 */

export interface Violation {
  fieldName: string;
  message: string;
}

const BLANK = 'must not be blank';
const NULL_OR_NOT_BLANK = 'Must be null or not blank';
/**
 * A repeated link label or author (name and role) is refused (spec.md §5). Names and labels that differ only in case,
 * accents or spacing are the same (`sortKey`): the way search and sorting compare them, and the way the web
 * client's edit dialog finds duplicates.
 */
const DUPLICATE = 'already exists';

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** Lock fields: copied when given as true/false; null and omitted leave the lock alone. */
function locks<T extends string>(dto: Record<string, unknown>, names: readonly T[]): Partial<Record<T, boolean>> {
  const out: Partial<Record<T, boolean>> = {};
  for (const name of names) if (typeof dto[name] === 'boolean') out[name] = dto[name] as boolean;
  return out;
}

function links(list: readonly { label: string; url: string }[], field: string, violations: Violation[]): WebLink[] {
  const labels = new Set<string>();
  return list.map((l, i) => {
    const label = l.label.trim();
    const url = l.url.trim();
    if (!label) violations.push({ fieldName: `${field}[${i}].label`, message: BLANK });
    else if (labels.has(sortKey(label))) violations.push({ fieldName: `${field}[${i}].label`, message: DUPLICATE });
    labels.add(sortKey(label));
    const problem = linkUrlProblem(url);
    if (problem === 'invalid') violations.push({ fieldName: `${field}[${i}].url`, message: 'must be a valid URL' });
    if (problem === 'scheme')
      violations.push({ fieldName: `${field}[${i}].url`, message: 'must be an http or https URL' });
    return { label, url };
  });
}

/** Checks a book update and turns it into the changes to store; `prefix` names the book in batch bodies. */
export function bookUpdate(
  dto: BookMetadataUpdateDto,
  prefix = '',
): { changes: BookMetadataChanges; violations: Violation[] } {
  const violations: Violation[] = [];
  const field = (name: string) => `${prefix}${name}`;
  const changes: BookMetadataChanges = locks(dto, [
    'titleLock',
    'summaryLock',
    'numberLock',
    'numberSortLock',
    'releaseDateLock',
    'authorsLock',
    'tagsLock',
    'isbnLock',
    'linksLock',
  ] as const);

  if (present(dto.title)) {
    if (dto.title.trim()) changes.title = dto.title.trim();
    else violations.push({ fieldName: field('title'), message: NULL_OR_NOT_BLANK });
  }
  if (dto.summary !== undefined) changes.summary = dto.summary?.trim() ?? '';
  if (present(dto.number)) {
    if (dto.number.trim()) changes.number = dto.number.trim();
    else violations.push({ fieldName: field('number'), message: NULL_OR_NOT_BLANK });
  }
  if (present(dto.numberSort)) changes.numberSort = dto.numberSort;
  if (dto.releaseDate !== undefined) {
    if (dto.releaseDate === null) changes.releaseDate = null;
    else if (isCalendarDate(dto.releaseDate.trim())) changes.releaseDate = dto.releaseDate.trim();
    else violations.push({ fieldName: field('releaseDate'), message: 'must be a valid date in YYYY-MM-DD format' });
  }
  if (dto.authors !== undefined) {
    const seen = new Set<string>();
    const authors: Author[] = [];
    (dto.authors ?? []).forEach((a, i) => {
      const author = { name: a.name.trim(), role: a.role.trim().toLowerCase() };
      if (!author.name) violations.push({ fieldName: field(`authors[${i}].name`), message: BLANK });
      if (!author.role) violations.push({ fieldName: field(`authors[${i}].role`), message: BLANK });
      const key = `${author.role}\u0000${sortKey(author.name)}`;
      if (author.name && author.role && seen.has(key))
        violations.push({ fieldName: field(`authors[${i}]`), message: DUPLICATE });
      seen.add(key);
      authors.push(author);
    });
    changes.authors = authors;
  }
  if (dto.tags !== undefined) changes.tags = normalizeTerms(dto.tags ?? []);
  if (dto.isbn !== undefined) {
    const text = dto.isbn?.trim() ?? '';
    const isbn = text === '' ? '' : isbn13FromInput(text);
    if (isbn === null) violations.push({ fieldName: field('isbn'), message: 'Must be null or blank or valid ISBN-13' });
    else changes.isbn = isbn;
  }
  if (dto.links !== undefined) changes.links = links(dto.links ?? [], field('links'), violations);
  return { changes, violations };
}

/** Checks a series update and turns it into the changes to store. */
export function seriesUpdate(dto: SeriesMetadataUpdateDto): {
  changes: SeriesMetadataChanges;
  violations: Violation[];
} {
  const violations: Violation[] = [];
  const changes: SeriesMetadataChanges = locks(dto, [
    'statusLock',
    'titleLock',
    'titleSortLock',
    'summaryLock',
    'readingDirectionLock',
    'publisherLock',
    'ageRatingLock',
    'languageLock',
    'genresLock',
    'tagsLock',
    'totalBookCountLock',
    'sharingLabelsLock',
    'linksLock',
    'alternateTitlesLock',
  ] as const);

  if (present(dto.status)) changes.status = dto.status;
  for (const name of ['title', 'titleSort'] as const) {
    const value = dto[name];
    if (!present(value)) continue;
    if (value.trim()) changes[name] = value.trim();
    else violations.push({ fieldName: name, message: NULL_OR_NOT_BLANK });
  }
  if (present(dto.summary)) changes.summary = dto.summary.trim();
  if (dto.readingDirection !== undefined) changes.readingDirection = dto.readingDirection;
  if (present(dto.publisher)) changes.publisher = dto.publisher.trim();
  if (dto.ageRating !== undefined) {
    if (dto.ageRating !== null && dto.ageRating < 0)
      violations.push({ fieldName: 'ageRating', message: 'must be greater than or equal to 0' });
    else changes.ageRating = dto.ageRating;
  }
  if (present(dto.language)) {
    const text = dto.language.trim();
    const language = text === '' ? '' : canonicalLanguage(text);
    if (language === null)
      violations.push({ fieldName: 'language', message: 'Must be null or blank or valid BCP 47 language tag' });
    else changes.language = language;
  }
  if (dto.genres !== undefined) changes.genres = normalizeTerms(dto.genres ?? []);
  if (dto.tags !== undefined) changes.tags = normalizeTerms(dto.tags ?? []);
  if (dto.sharingLabels !== undefined) changes.sharingLabels = normalizeTerms(dto.sharingLabels ?? []);
  if (dto.totalBookCount !== undefined) {
    if (dto.totalBookCount !== null && dto.totalBookCount < 1)
      violations.push({ fieldName: 'totalBookCount', message: 'must be greater than 0' });
    else changes.totalBookCount = dto.totalBookCount;
  }
  if (dto.links !== undefined) changes.links = links(dto.links ?? [], 'links', violations);
  if (dto.alternateTitles !== undefined) {
    changes.alternateTitles = (dto.alternateTitles ?? []).map((a, i) => {
      const label = a.label.trim();
      const title = a.title.trim();
      if (!label) violations.push({ fieldName: `alternateTitles[${i}].label`, message: BLANK });
      if (!title) violations.push({ fieldName: `alternateTitles[${i}].title`, message: BLANK });
      return { label, title };
    });
  }
  return { changes, violations };
}

/** The use cases behind PATCH /books/{id}/metadata, PATCH /books/metadata and PATCH /series/{id}/metadata. */
export class MetadataEditing {
  constructor(
    private readonly d: {
      metadata: MetadataRepository;
      books: Pick<BookRepository, 'find'>;
      series: Pick<SeriesRepository, 'find'>;
      events: EventBus;
      tasks: TaskEmitter;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.d.now?.() ?? new Date();
  }

  /** 404 for an unknown book, 400 with the violations for an invalid body. */
  async updateBook(bookId: string, dto: BookMetadataUpdateDto): Promise<void> {
    const book = await this.d.books.find(bookId);
    if (!book) throw notFound();
    const { changes, violations } = bookUpdate(dto);
    if (violations.length > 0) throw invalid(violations);
    await this.d.metadata.updateBook(bookId, changes, this.now());
    this.d.events.emit({ type: 'BookChanged', data: { bookId, seriesId: book.seriesId, libraryId: book.libraryId } });
    await this.d.tasks.submit([{ kind: 'AggregateSeriesMetadata', seriesId: book.seriesId }], PRIORITY.DEFAULT);
  }

  /** Every update is checked before any is stored; unknown book ids are skipped. */
  async updateBooks(updates: Readonly<Record<string, BookMetadataUpdateDto>>): Promise<void> {
    const violations: Violation[] = [];
    const checked: { bookId: string; changes: BookMetadataChanges }[] = [];
    for (const [bookId, dto] of Object.entries(updates)) {
      const u = bookUpdate(dto, `${bookId}.`);
      violations.push(...u.violations);
      checked.push({ bookId, changes: u.changes });
    }
    if (violations.length > 0) throw invalid(violations);
    const books = [];
    for (const u of checked) {
      const book = await this.d.books.find(u.bookId);
      if (book) books.push(book);
    }
    const known = new Set(books.map((b) => b.id));
    await this.d.metadata.updateBooks(
      checked.filter((u) => known.has(u.bookId)),
      this.now(),
    );
    for (const b of books)
      this.d.events.emit({ type: 'BookChanged', data: { bookId: b.id, seriesId: b.seriesId, libraryId: b.libraryId } });
    const series = [...new Set(books.map((b) => b.seriesId))];
    await this.d.tasks.submit(
      series.map((seriesId): Task => ({ kind: 'AggregateSeriesMetadata', seriesId })),
      PRIORITY.DEFAULT,
    );
  }

  /** 404 for an unknown series, 400 with the violations for an invalid body. */
  async updateSeries(seriesId: string, dto: SeriesMetadataUpdateDto): Promise<void> {
    const series = await this.d.series.find(seriesId);
    if (!series) throw notFound();
    const { changes, violations } = seriesUpdate(dto);
    if (violations.length > 0) throw invalid(violations);
    await this.d.metadata.updateSeries(seriesId, changes, this.now());
    this.d.events.emit({ type: 'SeriesChanged', data: { seriesId, libraryId: series.libraryId } });
  }
}
