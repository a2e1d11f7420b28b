import type { BookFileView } from '../domain/book.js';
import { notFound } from '../domain/errors.js';
import type {
  Found,
  KnownPageHash,
  PageHashAction,
  PageHashMatch,
  PageHashRepository,
  PageHashSlice,
  PageHashSort,
  UnknownPageHash,
} from '../domain/page-hashes.js';
import { makeThumbnail, resizeToJpeg } from '../media/images.js';
import { PRIORITY, type Priority, type Task } from '../tasks/definitions.js';
import type { TaskEmitter } from '../tasks/emitter.js';
import type { BookPages, Content } from './book-pages.js';

/** The thumbnail stored with a known hash: JPEG, longest edge 500 px (engine.md §5.4). */
const KNOWN_THUMBNAIL_EDGE = 500;
/** Largest `resize` honoured for an unknown hash's thumbnail (a served page is at most this wide anyway). */
const MAX_RESIZE = 3200;

const noSuchHash = () => notFound('Page hash not found');

/**
 * Duplicate pages (engine.md §5.4, api.md §3.10): the known and unknown lists, the pages holding a hash, the
 * administrator's decisions, and the removals they ask for, queued as RemoveHashedPages tasks (the archives are
 * rewritten by `BookPageEditor`).
 */
export class DuplicatePages {
  constructor(
    private readonly d: {
      pageHashes: PageHashRepository;
      books: { findFile(bookId: string): Promise<BookFileView | undefined> };
      pages: Pick<BookPages, 'withPageBytes'>;
      tasks: TaskEmitter;
      now?: () => Date;
    },
  ) {}

  listKnown(actions: readonly PageHashAction[], sort: readonly PageHashSort[], slice: PageHashSlice) {
    return this.d.pageHashes.listKnown(actions, sort, slice);
  }

  listUnknown(sort: readonly PageHashSort[], slice: PageHashSlice): Promise<Found<UnknownPageHash>> {
    return this.d.pageHashes.listUnknown(sort, slice);
  }

  /** The pages holding a hash; a hash that is neither known nor held by any page is a 404. */
  async listMatches(hash: string, sort: readonly PageHashSort[], slice: PageHashSlice): Promise<Found<PageHashMatch>> {
    const found = await this.d.pageHashes.listMatches(hash, sort, slice);
    if (found.total === 0 && !(await this.d.pageHashes.findKnown(hash))) throw noSuchHash();
    return found;
  }

  /**
   * Creates a known hash, with a thumbnail of the first page holding it, or changes the action of one that exists
   * (only the action: its size and thumbnail stay).
   */
  async decide(hash: string, size: number | null, action: PageHashAction): Promise<KnownPageHash> {
    const now = this.now();
    if (await this.d.pageHashes.findKnown(hash)) {
      await this.d.pageHashes.updateAction(hash, action, now);
    } else {
      const thumbnail = await this.firstPage(
        hash,
        async (page) => (await makeThumbnail(page.bytes, { maxEdge: KNOWN_THUMBNAIL_EDGE, format: 'jpeg' })).bytes,
      );
      // The size a client did not give is the page's: the saved-size figures need it.
      const pageSize =
        size ?? (await this.d.pageHashes.listMatches(hash, [], { offset: 0, limit: 1 })).items[0]?.fileSize;
      await this.d.pageHashes.create({ hash, size: pageSize ?? null, action, thumbnail }, now);
    }
    return (await this.d.pageHashes.findKnown(hash))!;
  }

  /** The thumbnail stored when the hash became known. */
  async knownThumbnail(hash: string): Promise<Uint8Array> {
    const thumbnail = await this.d.pageHashes.thumbnail(hash);
    if (!thumbnail) throw noSuchHash();
    return thumbnail;
  }

  /** The first page holding the hash, as it is, or as a JPEG fitting `resize` px when asked. */
  async unknownThumbnail(hash: string, resize: number | undefined): Promise<Content> {
    const thumbnail = await this.firstPage(hash, async (page): Promise<Content> => {
      if (!resize || resize < 1) return page;
      const resized = await resizeToJpeg(page.bytes, Math.min(resize, MAX_RESIZE));
      return { bytes: resized.bytes, mediaType: resized.mediaType };
    });
    if (!thumbnail) throw noSuchHash();
    return thumbnail;
  }

  /** Queues the removal of every page holding the hash, whatever its action (one task per book). */
  async deleteAll(hash: string): Promise<void> {
    const { items, total } = await this.d.pageHashes.listMatches(hash, [], null);
    if (total === 0 && !(await this.d.pageHashes.findKnown(hash))) throw noSuchHash();
    await this.queueRemovals(hash, items, PRIORITY.DEFAULT);
  }

  /** Queues the removal of one page holding the hash (`pageNumber` 1-based); a page that does not hold it is a 404. */
  async deleteMatch(hash: string, match: { bookId: string; pageNumber: number }): Promise<void> {
    const { items } = await this.d.pageHashes.listMatches(hash, [], null);
    const page = items.find((m) => m.bookId === match.bookId && m.number === match.pageNumber - 1);
    if (!page) throw notFound('No such page holds this hash');
    await this.queueRemovals(hash, [page], PRIORITY.DEFAULT);
  }

  /** FindDuplicatePagesToDelete: the RemoveHashedPages tasks for a library's pages known as DELETE_AUTO. */
  async autoDeletions(libraryId: string): Promise<Task[]> {
    const byBook = await this.d.pageHashes.autoDeletePages(libraryId);
    return [...byBook].map(([bookId, { seriesId, pages }]): Task => ({
      kind: 'RemoveHashedPages',
      bookId,
      seriesId,
      pages,
    }));
  }

  private async queueRemovals(hash: string, matches: readonly PageHashMatch[], priority: Priority): Promise<void> {
    const byBook = new Map<string, Task & { kind: 'RemoveHashedPages' }>();
    for (const m of matches) {
      let task = byBook.get(m.bookId);
      if (!task)
        byBook.set(m.bookId, (task = { kind: 'RemoveHashedPages', bookId: m.bookId, seriesId: m.seriesId, pages: [] }));
      task.pages.push({ hash, fileName: m.fileName, mediaType: m.mediaType, number: m.number });
    }
    await this.d.tasks.submit([...byBook.values()], priority);
  }

  /** `use` with the bytes of the first readable page holding the hash; null when no page can be read. */
  private async firstPage<T>(hash: string, use: (page: Content) => Promise<T>): Promise<T | null> {
    const { items } = await this.d.pageHashes.listMatches(hash, [], { offset: 0, limit: 5 });
    for (const m of items) {
      const book = await this.d.books.findFile(m.bookId);
      if (!book) continue;
      try {
        return await this.d.pages.withPageBytes(book, m.number + 1, use);
      } catch {
        // that book's file is gone or unreadable: try the next one
      }
    }
    return null;
  }

  private now(): string {
    return (this.d.now?.() ?? new Date()).toISOString();
  }
}
