/** Server-sent events on `/sse/v1/events` (api.md §6). Names and payloads are Komga's. */
export interface QuireEventPayloads {
  LibraryAdded: { libraryId: string };
  LibraryChanged: { libraryId: string };
  LibraryDeleted: { libraryId: string };
  SeriesAdded: { seriesId: string; libraryId: string };
  SeriesChanged: { seriesId: string; libraryId: string };
  SeriesDeleted: { seriesId: string; libraryId: string };
  BookAdded: { bookId: string; seriesId: string; libraryId: string };
  BookChanged: { bookId: string; seriesId: string; libraryId: string };
  BookDeleted: { bookId: string; seriesId: string; libraryId: string };
  BookImported: { bookId?: string; sourceFile: string; success: boolean; message?: string };
  CollectionAdded: { collectionId: string; seriesIds: string[] };
  CollectionChanged: { collectionId: string; seriesIds: string[] };
  CollectionDeleted: { collectionId: string; seriesIds: string[] };
  ReadListAdded: { readListId: string; bookIds: string[] };
  ReadListChanged: { readListId: string; bookIds: string[] };
  ReadListDeleted: { readListId: string; bookIds: string[] };
  ReadProgressChanged: { bookId: string; userId: string };
  ReadProgressDeleted: { bookId: string; userId: string };
  ReadProgressSeriesChanged: { seriesId: string; userId: string };
  ReadProgressSeriesDeleted: { seriesId: string; userId: string };
  ThumbnailBookAdded: { bookId: string; seriesId: string; selected: boolean };
  ThumbnailBookDeleted: { bookId: string; seriesId: string; selected: boolean };
  ThumbnailSeriesAdded: { seriesId: string; selected: boolean };
  ThumbnailSeriesDeleted: { seriesId: string; selected: boolean };
  ThumbnailSeriesCollectionAdded: { collectionId: string; selected: boolean };
  ThumbnailSeriesCollectionDeleted: { collectionId: string; selected: boolean };
  ThumbnailReadListAdded: { readListId: string; selected: boolean };
  ThumbnailReadListDeleted: { readListId: string; selected: boolean };
  TaskQueueStatus: { count: number; countByType: Record<string, number> };
  SessionExpired: { userId: string };
}

export type QuireEventType = keyof QuireEventPayloads;
export type QuireEvent = { [T in QuireEventType]: { type: T; data: QuireEventPayloads[T] } }[QuireEventType];
export type EventOf<T extends QuireEventType> = Extract<QuireEvent, { type: T }>;

/** Who receives an event (api.md §6): everyone, admins only, or only the user it concerns. */
export const EVENT_AUDIENCE: Record<QuireEventType, 'all' | 'admin' | 'self'> = {
  LibraryAdded: 'all',
  LibraryChanged: 'all',
  LibraryDeleted: 'all',
  SeriesAdded: 'all',
  SeriesChanged: 'all',
  SeriesDeleted: 'all',
  BookAdded: 'all',
  BookChanged: 'all',
  BookDeleted: 'all',
  BookImported: 'admin',
  CollectionAdded: 'all',
  CollectionChanged: 'all',
  CollectionDeleted: 'all',
  ReadListAdded: 'all',
  ReadListChanged: 'all',
  ReadListDeleted: 'all',
  ReadProgressChanged: 'self',
  ReadProgressDeleted: 'self',
  ReadProgressSeriesChanged: 'self',
  ReadProgressSeriesDeleted: 'self',
  ThumbnailBookAdded: 'all',
  ThumbnailBookDeleted: 'all',
  ThumbnailSeriesAdded: 'all',
  ThumbnailSeriesDeleted: 'all',
  ThumbnailSeriesCollectionAdded: 'all',
  ThumbnailSeriesCollectionDeleted: 'all',
  ThumbnailReadListAdded: 'all',
  ThumbnailReadListDeleted: 'all',
  TaskQueueStatus: 'admin',
  SessionExpired: 'self',
};
