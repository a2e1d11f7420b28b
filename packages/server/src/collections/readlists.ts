import type { ReadListRepository, UnitOfWork } from '../domain/ports.js';
import type { ExportedBook, ReadListCounts, ReadListMember, StoredReadList } from '../domain/collection.js';
import { badRequest, invalid, notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { seesEverything, type ContentViewer } from '../domain/restrictions.js';
import { THUMBNAIL_SIZES, type SettingsStore } from '../domain/settings.js';
import type { EventBus } from '../events/bus.js';
import {
  candidateSeriesNames,
  matchCblRequests,
  parseCbl,
  toCblBook,
  writeCbl,
  type CblRequestMatches,
} from './cbl.js';
import { mosaicOf, type Mosaic } from './mosaic.js';
import { compareNames, nameMatcher, pageOf, type Paging } from './names.js';
import type { SetPosters, StoredPoster } from './posters.js';

/*
 * Read lists of books (api.md §3.5, §2.10, engine.md §6.10, §7.3, §12.3). Visibility as for collections
 * (collections.ts): only the books the viewer may see, `filtered` when some were hidden, and a list with no
 * visible book does not exist for them unless nothing is hidden from them at all.
 * Book order: the stored order when `ordered`, else release date (books without one first, as Komga's SQL
 * sorts them), then stored order.
 */

export const READ_LIST_NAME_EXISTS = 'ERR_1009';

export interface ReadListView extends StoredReadList {
  /** Visible books, in reading order. */
  bookIds: string[];
  filtered: boolean;
}

export type ReadListSortProperty = 'name' | 'createdDate' | 'lastModifiedDate';

export interface ReadListListQuery {
  search?: string;
  libraryIds?: readonly string[];
  /** Empty: by name, or by relevance when searching. */
  sort?: readonly { property: ReadListSortProperty; descending: boolean }[];
  paging?: Paging;
}

/** What the service needs from book posters and access checks (library/thumbnails.ts). */
export interface BookPosters {
  bookPoster(bookId: string): Promise<Buffer | null>;
  checkBookAccess(user: ContentViewer, bookId: string): Promise<void>;
}

export interface ReadListServiceDeps {
  repository: ReadListRepository;
  /** Checks and writes that must hold together (a name is free, then taken) run in one unit of work. */
  uow: UnitOfWork;
  posters: SetPosters;
  books: BookPosters;
  events: EventBus;
  settings: SettingsStore;
  now?: () => Date;
}

function checkIds(ids: readonly string[] | undefined, emptyMessage: string) {
  if (ids === undefined) return;
  if (ids.length === 0) throw invalid([{ fieldName: 'bookIds', message: emptyMessage }]);
  if (new Set(ids).size !== ids.length) {
    throw invalid([{ fieldName: 'bookIds', message: 'must only contain unique elements' }]);
  }
}

function checkName(name: string | undefined, blankMessage: string): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (!trimmed) throw invalid([{ fieldName: 'name', message: blankMessage }]);
  return trimmed;
}

/** Release date order, undated books first; the stored order breaks ties. */
const byReleaseDate = (a: ReadListMember, b: ReadListMember) => {
  if (a.releaseDate !== b.releaseDate) {
    if (a.releaseDate === null) return -1;
    if (b.releaseDate === null) return 1;
    return a.releaseDate < b.releaseDate ? -1 : 1;
  }
  return a.number - b.number;
};

const SORT_KEYS: Record<ReadListSortProperty, (r: ReadListCounts) => string> = {
  name: (r) => r.name,
  createdDate: (r) => r.createdDate,
  lastModifiedDate: (r) => r.lastModifiedDate,
};

export class ReadListService {
  private readonly now: () => string;
  private readonly clock: () => Date;

  constructor(private readonly d: ReadListServiceDeps) {
    const clock = d.now ?? (() => new Date());
    this.clock = clock;
    this.now = () => clock().toISOString();
  }

  private isVisible(r: ReadListCounts, viewer: ContentViewer): boolean {
    return r.visible > 0 || (r.total === 0 && seesEverything(viewer));
  }

  /** Visible members of each list, in reading order. */
  private async orderedMembers(lists: readonly ReadListCounts[], viewer: ContentViewer) {
    const members = await this.d.repository.members(
      lists.map((r) => r.id),
      viewer,
    );
    const byList = new Map<string, ReadListMember[]>();
    for (const m of members) {
      if (!m.visible) continue;
      byList.set(m.readListId, [...(byList.get(m.readListId) ?? []), m]);
    }
    for (const r of lists) if (!r.ordered) byList.get(r.id)?.sort(byReleaseDate);
    return byList;
  }

  private async views(lists: readonly ReadListCounts[], viewer: ContentViewer): Promise<ReadListView[]> {
    const byList = await this.orderedMembers(lists, viewer);
    return lists.map((r) => {
      const visible = byList.get(r.id) ?? [];
      return {
        id: r.id,
        name: r.name,
        summary: r.summary,
        ordered: r.ordered,
        createdDate: r.createdDate,
        lastModifiedDate: r.lastModifiedDate,
        bookIds: visible.map((m) => m.bookId),
        filtered: visible.length < r.total,
      };
    });
  }

  /** `GET /api/v1/readlists`. */
  async list(viewer: ContentViewer, q: ReadListListQuery = {}): Promise<{ content: ReadListView[]; total: number }> {
    const libraryIds = q.libraryIds?.length ? q.libraryIds : undefined;
    let found = (await this.d.repository.findAllWithCounts(viewer, { libraryIds })).filter((r) =>
      libraryIds ? r.inLibraries > 0 : this.isVisible(r, viewer),
    );
    const sort = q.sort ?? [];
    const compare = (a: ReadListCounts, b: ReadListCounts) => {
      for (const s of sort) {
        const ka = SORT_KEYS[s.property](a);
        const kb = SORT_KEYS[s.property](b);
        const c = s.property === 'name' ? compareNames(ka, kb) : ka < kb ? -1 : ka > kb ? 1 : 0;
        if (c !== 0) return s.descending ? -c : c;
      }
      return compareNames(a.name, b.name);
    };
    if (q.search !== undefined && q.search.trim() !== '') {
      const match = nameMatcher(q.search);
      const scored = found.flatMap((r) => {
        const score = match(r.name);
        return score === null ? [] : [{ r, score }];
      });
      scored.sort((a, b) => (sort.length > 0 ? compare(a.r, b.r) : b.score - a.score || compare(a.r, b.r)));
      found = scored.map((s) => s.r);
    } else {
      found.sort(compare);
    }
    return { content: await this.views(pageOf(found, q.paging), viewer), total: found.length };
  }

  /** 404 when missing or when the viewer sees none of its books. */
  async get(viewer: ContentViewer, id: string): Promise<ReadListView> {
    return (await this.views([await this.counts(viewer, id)], viewer))[0]!;
  }

  private async counts(viewer: ContentViewer, id: string): Promise<ReadListCounts> {
    const [found] = await this.d.repository.findAllWithCounts(viewer, { ids: [id] });
    if (!found || !this.isVisible(found, viewer)) throw notFound();
    return found;
  }

  /** `GET /api/v1/books/{id}/readlists`: 404/403 for the book, then the visible read lists holding it. */
  async ofBook(viewer: ContentViewer, bookId: string): Promise<ReadListView[]> {
    await this.d.books.checkBookAccess(viewer, bookId);
    const ids = await this.d.repository.idsContainingBook(bookId);
    if (ids.length === 0) return [];
    const found = (await this.d.repository.findAllWithCounts(viewer, { ids })).filter((r) => this.isVisible(r, viewer));
    found.sort((a, b) => compareNames(a.name, b.name));
    return this.views(found, viewer);
  }

  /** `POST /api/v1/readlists`: 400 on a blank or taken name (ERR_1009, case-insensitive), on no or repeated books. */
  async create(
    viewer: ContentViewer,
    input: { name: string; summary?: string; ordered?: boolean; bookIds: readonly string[] },
  ): Promise<ReadListView> {
    const name = checkName(input.name, 'must not be blank')!;
    checkIds(input.bookIds, 'must not be empty');
    const id = newId();
    const bookIds = await this.d.uow.run(async ({ readLists: repo }) => {
      if (await repo.findByName(name)) throw badRequest(READ_LIST_NAME_EXISTS);
      const existing = await repo.existingBooks(input.bookIds);
      const bookIds = input.bookIds.filter((b) => existing.has(b));
      await repo.insert(
        { id, name, summary: input.summary ?? '', ordered: input.ordered ?? true, createdDate: this.now() },
        bookIds.map((bookId, number) => ({ bookId, number })),
      );
      return bookIds;
    });
    this.d.events.emit({ type: 'ReadListAdded', data: { readListId: id, bookIds } });
    const [created] = await this.d.repository.findAllWithCounts(viewer, { ids: [id] });
    return (await this.views([created!], viewer))[0]!;
  }

  /**
   * `PATCH /api/v1/readlists/{id}`. A new `bookIds` replaces the books the caller can see; books hidden from
   * the caller by their own restrictions stay, after the given ones.
   */
  async update(
    viewer: ContentViewer,
    id: string,
    patch: { name?: string; summary?: string; ordered?: boolean; bookIds?: readonly string[] },
  ): Promise<void> {
    const name = checkName(patch.name, 'must be null or not blank');
    checkIds(patch.bookIds, 'must be null or not empty');
    const memberIds = await this.d.uow.run(async ({ readLists: repo }) => {
      const current = await repo.findById(id);
      if (!current) throw notFound();
      if (name !== undefined) {
        const clash = await repo.findByName(name);
        if (clash && clash.id !== id) throw badRequest(READ_LIST_NAME_EXISTS);
      }
      let bookIds: string[] | undefined;
      if (patch.bookIds) {
        const existing = await repo.existingBooks(patch.bookIds);
        const wanted = patch.bookIds.filter((b) => existing.has(b));
        const hidden = (await repo.members([id], viewer))
          .filter((m) => !m.visible && !wanted.includes(m.bookId))
          .map((m) => m.bookId);
        bookIds = [...wanted, ...hidden];
      }
      await repo.update(id, { name, summary: patch.summary, ordered: patch.ordered, bookIds }, this.clock());
      return bookIds ?? (await repo.memberIds(id));
    });
    this.d.events.emit({ type: 'ReadListChanged', data: { readListId: id, bookIds: memberIds } });
  }

  async delete(id: string): Promise<void> {
    const bookIds = await this.d.uow.run(async ({ readLists: repo }) => {
      if (!(await repo.findById(id))) throw notFound();
      const bookIds = await repo.memberIds(id);
      await repo.delete([id]);
      return bookIds;
    });
    await this.d.posters.removeFiles('readlist', [id]);
    this.d.events.emit({ type: 'ReadListDeleted', data: { readListId: id, bookIds } });
  }

  /**
   * From metadata (ComicInfo StoryArc / AlternateSeries, engine.md §6.10): the read list with that name
   * (case-insensitive) gets the book at position `number` when free, else after its last book; a missing list
   * is created ordered with it. A book already in the list stays where it is.
   */
  async addBookByName(name: string, bookId: string, number: number | null): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed) return;
    const outcome = await this.d.uow.run(async ({ readLists: repo }) => {
      if (!(await repo.existingBooks([bookId])).has(bookId)) return null;
      const found = await repo.findByName(trimmed);
      if (!found) {
        const id = newId();
        const at = number !== null && number >= 0 ? number : 0;
        await repo.insert({ id, name: trimmed, summary: '', ordered: true, createdDate: this.now() }, [
          { bookId, number: at },
        ]);
        return { type: 'ReadListAdded' as const, id };
      }
      if (!(await repo.add(found.id, bookId, number, this.clock()))) return null;
      return { type: 'ReadListChanged' as const, id: found.id };
    });
    if (!outcome) return;
    const bookIds = await this.d.repository.memberIds(outcome.id);
    this.d.events.emit({ type: outcome.type, data: { readListId: outcome.id, bookIds } });
  }

  /** Deletes every read list without books (engine.md §12.3); returns their ids. */
  async deleteEmpty(): Promise<string[]> {
    const ids = await this.d.uow.run(async ({ readLists: repo }) => {
      const ids = await repo.emptyIds();
      await repo.delete(ids);
      return ids;
    });
    await this.d.posters.removeFiles('readlist', ids);
    for (const id of ids) this.d.events.emit({ type: 'ReadListDeleted', data: { readListId: id, bookIds: [] } });
    return ids;
  }

  /** Announces the read lists that lost books to a book deletion since the last call. */
  async announceMembershipRemovals(): Promise<void> {
    for (const id of await this.d.repository.takeMembershipRemovals()) {
      if (!(await this.d.repository.findById(id))) continue;
      const bookIds = await this.d.repository.memberIds(id);
      this.d.events.emit({ type: 'ReadListChanged', data: { readListId: id, bookIds } });
    }
  }

  // ---- exports ----

  /** The viewer's books of the list in reading order, with what downloads need. */
  async exportedBooks(viewer: ContentViewer, id: string): Promise<{ name: string; books: ExportedBook[] }> {
    const view = await this.get(viewer, id);
    return { name: view.name, books: await this.d.repository.exportedBooks(view.bookIds) };
  }

  /** The list as a ComicRack reading list (.cbl), with the books the viewer may see. */
  async comicRackList(viewer: ContentViewer, id: string): Promise<{ name: string; xml: string }> {
    const { name, books } = await this.exportedBooks(viewer, id);
    return { name, xml: writeCbl(name, books.map(toCblBook)) };
  }

  // ---- posters ----

  /**
   * `POST /api/v1/readlists/match/comicrack` (admin): the list's name, with ERR_1009 when a read list already
   * has it, and the books of every library that answer each of its requests. Nothing is created: the client
   * sends the chosen books to `create`. Throws a 400 with the code for a file that is not a usable list.
   */
  async matchComicRackList(
    bytes: Uint8Array,
  ): Promise<{ readListMatch: { name: string; errorCode: string }; requests: CblRequestMatches[] }> {
    const list = parseCbl(bytes);
    const [taken, candidates] = await Promise.all([
      this.d.repository.findByName(list.name),
      this.d.repository.booksOfSeriesTitled(list.books.flatMap(candidateSeriesNames)),
    ]);
    return {
      readListMatch: { name: list.name, errorCode: taken ? READ_LIST_NAME_EXISTS : '' },
      requests: matchCblRequests(list.books, candidates),
    };
  }

  async posters(viewer: ContentViewer, id: string): Promise<StoredPoster[]> {
    await this.counts(viewer, id);
    return this.d.posters.list('readlist', id);
  }

  async posterBytes(viewer: ContentViewer, id: string, thumbnailId: string): Promise<Buffer> {
    await this.counts(viewer, id);
    return this.d.posters.bytes('readlist', id, thumbnailId);
  }

  async uploadPoster(id: string, bytes: Uint8Array, selected: boolean): Promise<StoredPoster> {
    if (!(await this.d.repository.findById(id))) throw notFound();
    return this.d.posters.upload('readlist', id, bytes, selected);
  }

  async selectPoster(id: string, thumbnailId: string): Promise<void> {
    if (!(await this.d.repository.findById(id))) throw notFound();
    await this.d.posters.select('readlist', id, thumbnailId);
  }

  async deletePoster(id: string, thumbnailId: string): Promise<void> {
    if (!(await this.d.repository.findById(id))) throw notFound();
    await this.d.posters.delete('readlist', id, thumbnailId);
  }

  /**
   * `GET /api/v1/readlists/{id}/thumbnail`: the selected upload, else the mosaic of the viewer's first four
   * books; 404 when the list is invisible or nothing has a poster.
   */
  async thumbnail(viewer: ContentViewer, id: string): Promise<{ bytes: Buffer } | Mosaic> {
    const view = await this.get(viewer, id);
    const uploaded = await this.d.posters.selectedBytes('readlist', id);
    if (uploaded) return { bytes: uploaded };
    const edge = THUMBNAIL_SIZES[(await this.d.settings.get()).thumbnailSize];
    const mosaic = await mosaicOf(view.bookIds, (bookId) => this.d.books.bookPoster(bookId), edge);
    if (!mosaic) throw notFound();
    return mosaic;
  }
}
