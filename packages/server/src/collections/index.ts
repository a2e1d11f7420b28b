import type { Repositories, UnitOfWork } from '../domain/ports.js';
import type { SettingsStore } from '../domain/settings.js';
import type { EventBus } from '../events/bus.js';
import { CollectionService, type SeriesPosters } from './collections.js';
import { SetPosters } from './posters.js';
import { ReadListService, type BookPosters } from './readlists.js';

export { CollectionService, COLLECTION_NAME_EXISTS, type CollectionView } from './collections.js';
export { ReadListService, READ_LIST_NAME_EXISTS, type ReadListView, type ReadListSortProperty } from './readlists.js';
export type { StoredPoster } from './posters.js';

export interface CollectionsLogger {
  warn(obj: object, msg: string): void;
}

export interface CollectionsDeps {
  repos: Pick<Repositories, 'collections' | 'readLists' | 'posters'>;
  uow: UnitOfWork;
  events: EventBus;
  settings: SettingsStore;
  /** Series and book posters and access checks (library/thumbnails.ts). */
  thumbnails: SeriesPosters & BookPosters;
  dataDir: string;
  logger?: CollectionsLogger;
}

export type Collections = ReturnType<typeof createCollections>;

/**
 * Collections and read lists: both services, the delete-empty step that follows scans and trash emptying
 * (engine.md §12.3), and the announcement of sets that lost members when series or books were deleted.
 */
export function createCollections(d: CollectionsDeps) {
  const posters = new SetPosters({ repository: d.repos.posters, events: d.events, dataDir: d.dataDir });
  const collections = new CollectionService({
    repository: d.repos.collections,
    uow: d.uow,
    posters,
    series: d.thumbnails,
    events: d.events,
    settings: d.settings,
  });
  const readLists = new ReadListService({
    repository: d.repos.readLists,
    uow: d.uow,
    posters,
    books: d.thumbnails,
    events: d.events,
    settings: d.settings,
  });

  // Deletions come as bursts of events (one per book): one pass after the burst, another if more arrive meanwhile.
  let running: Promise<void> | null = null;
  let again = false;
  const announce = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await new Promise((resolve) => setImmediate(resolve));
        try {
          await collections.announceMembershipRemovals();
          await readLists.announceMembershipRemovals();
        } catch (err) {
          d.logger?.warn({ err }, 'Could not announce collections and read lists changed by a deletion');
        }
      } while (again);
      running = null;
    })();
  };
  const unsubscribe = d.events.subscribe((e) => {
    if (e.type === 'SeriesDeleted' || e.type === 'BookDeleted' || e.type === 'LibraryDeleted') announce();
  });

  return {
    collections,
    readLists,
    /** What metadata import calls (metadata-refresh.ts `MetadataLists`): ComicInfo SeriesGroup and story arcs. */
    metadataLists: {
      addSeriesToCollection: (name: string, seriesId: string) => collections.addSeriesByName(name, seriesId),
      addBookToReadList: (name: string, bookId: string, number: number | null) =>
        readLists.addBookByName(name, bookId, number),
    },
    /** After a scan and after emptying the trash: drops empty sets when the server settings say so. */
    async deleteEmptyAfterScan(): Promise<void> {
      // Housekeeping: a failure here must not fail the scan or the trash emptying that called it.
      try {
        const s = await d.settings.get();
        if (s.deleteEmptyCollections) await collections.deleteEmpty();
        if (s.deleteEmptyReadLists) await readLists.deleteEmpty();
      } catch (err) {
        d.logger?.warn({ err }, 'Could not delete empty collections and read lists');
      }
    },
    /** Resolves once pending announcements are made (tests, shutdown). */
    settled: async () => {
      while (running) await running;
    },
    /** Stops listening to deletions; waits for a pass in progress. */
    async close(): Promise<void> {
      unsubscribe();
      while (running) await running;
    },
  };
}
