import { EVENT_AUDIENCE, type QuireEvent } from '@quire/api';
import { canAccessLibrary, type ContentViewer } from '../domain/restrictions.js';

/** What a subscriber may see, asked of the database for the one viewer a stream belongs to. */
export interface VisibleContent {
  /** Of these ids, the existing series (books) the viewer may see. */
  series(ids: readonly string[]): Promise<Set<string>>;
  books(ids: readonly string[]): Promise<Set<string>>;
  /** Whether the collection (read list) is visible: some visible member, or empty and nothing hidden. */
  collection(id: string): Promise<boolean>;
  readList(id: string): Promise<boolean>;
}

export interface Subscriber extends ContentViewer {
  id: string;
}

/**
 * What one subscriber of the live events receives of an event: the event, a copy narrowed to what he may see,
 * or null. Komga sends content events to everyone (api.md §6); Quire applies the REST API's rules (library
 * sharing, age rating, sharing labels), so that no id of hidden content reaches a restricted user:
 * - admin events (TaskQueueStatus, BookImported) go to admins, self events to their user;
 * - a library, series or book event only to who may see it, a thumbnail event only to who may see its owner;
 * - a collection (read list) event only to who may see the collection, with its `seriesIds` (`bookIds`)
 *   narrowed to the visible ones;
 * - a deleted series or book can no longer be checked for age rating and labels, so its event goes to users
 *   shared its library who have no such restriction.
 */
export async function eventFor(
  event: QuireEvent,
  viewer: Subscriber,
  content: VisibleContent,
): Promise<QuireEvent | null> {
  const audience = EVENT_AUDIENCE[event.type];
  if (audience === 'admin') return viewer.roles.has('ADMIN') ? event : null;
  if (audience === 'self' && (!('userId' in event.data) || event.data.userId !== viewer.id)) return null;
  if (unrestricted(viewer)) return event;
  const seriesVisible = async (id: string) => (await content.series([id])).has(id);
  const bookVisible = async (id: string) => (await content.books([id])).has(id);
  const keepIf = (visible: boolean) => (visible ? event : null);

  switch (event.type) {
    case 'LibraryAdded':
    case 'LibraryChanged':
    case 'LibraryDeleted':
      return keepIf(canAccessLibrary(viewer, event.data.libraryId));
    case 'SeriesAdded':
    case 'SeriesChanged':
    case 'ReadProgressSeriesChanged':
    case 'ReadProgressSeriesDeleted':
    case 'ThumbnailSeriesAdded':
    case 'ThumbnailSeriesDeleted':
      return keepIf(await seriesVisible(event.data.seriesId));
    case 'BookAdded':
    case 'BookChanged':
    case 'ReadProgressChanged':
    case 'ReadProgressDeleted':
    case 'ThumbnailBookAdded':
    case 'ThumbnailBookDeleted':
      return keepIf(await bookVisible(event.data.bookId));
    case 'SeriesDeleted':
    case 'BookDeleted':
      return keepIf(canAccessLibrary(viewer, event.data.libraryId) && !hasContentRestrictions(viewer));
    case 'CollectionAdded':
    case 'CollectionChanged':
    case 'CollectionDeleted': {
      const visible = await content.series(event.data.seriesIds);
      if (visible.size === 0) return null;
      return { ...event, data: { ...event.data, seriesIds: event.data.seriesIds.filter((id) => visible.has(id)) } };
    }
    case 'ReadListAdded':
    case 'ReadListChanged':
    case 'ReadListDeleted': {
      const visible = await content.books(event.data.bookIds);
      if (visible.size === 0) return null;
      return { ...event, data: { ...event.data, bookIds: event.data.bookIds.filter((id) => visible.has(id)) } };
    }
    case 'ThumbnailSeriesCollectionAdded':
    case 'ThumbnailSeriesCollectionDeleted':
      return keepIf(await content.collection(event.data.collectionId));
    case 'ThumbnailReadListAdded':
    case 'ThumbnailReadListDeleted':
      return keepIf(await content.readList(event.data.readListId));
    default:
      // Events that carry no content id (SessionExpired).
      return event;
  }
}

const hasContentRestrictions = (viewer: ContentViewer) =>
  viewer.ageRestriction !== null || viewer.labelsAllow.length > 0 || viewer.labelsExclude.length > 0;

/** Sees every library and has no content restriction: every event goes through unchanged. */
const unrestricted = (viewer: ContentViewer) =>
  (viewer.roles.has('ADMIN') || viewer.sharedAllLibraries) && !hasContentRestrictions(viewer);
