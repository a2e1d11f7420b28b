import { useEffect } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { QuireEventPayloads, QuireEventType } from '@quire/api';
import { operationUrl } from './client';
import { bookKeys, thumbnailKeys } from './books';
import { collectionKeys } from './collections';
import { libraryKeys } from './libraries';
import { readListKeys } from './readlists';
import { seriesKeys } from './series';

/** The last TaskQueueStatus event, kept in the query cache for the drawer's progress bar. */
export const taskQueueKey = ['tasks', 'status'] as const;

/**
 * What each live event makes stale, as query-key prefixes (one table, one place). Screens add their rows as they
 * arrive; an event without a row changes nothing.
 */
const affected: { [T in QuireEventType]?: (data: QuireEventPayloads[T]) => QueryKey[] } = {
  LibraryAdded: () => [libraryKeys.all],
  LibraryChanged: () => [libraryKeys.all],
  LibraryDeleted: () => [libraryKeys.all],
  // Series carry their books' counts and books their series' title: a change on either side refreshes both.
  SeriesAdded: () => [seriesKeys.all],
  SeriesChanged: () => [seriesKeys.all, bookKeys.all],
  SeriesDeleted: () => [seriesKeys.all, bookKeys.all, collectionKeys.all],
  BookAdded: () => [bookKeys.all, seriesKeys.all],
  BookChanged: () => [bookKeys.all, seriesKeys.all],
  BookDeleted: () => [bookKeys.all, seriesKeys.all, readListKeys.all],
  CollectionAdded: (e) => [collectionKeys.all, [...seriesKeys.all, 'collection', e.collectionId]],
  CollectionChanged: (e) => [collectionKeys.all, [...seriesKeys.all, 'collection', e.collectionId]],
  CollectionDeleted: (e) => [collectionKeys.all, [...seriesKeys.all, 'collection', e.collectionId]],
  ReadListAdded: (e) => [readListKeys.all, [...bookKeys.all, 'readlist', e.readListId]],
  ReadListChanged: (e) => [readListKeys.all, [...bookKeys.all, 'readlist', e.readListId]],
  ReadListDeleted: (e) => [readListKeys.all, [...bookKeys.all, 'readlist', e.readListId]],
  ReadProgressChanged: () => [bookKeys.all, seriesKeys.all],
  ReadProgressDeleted: () => [bookKeys.all, seriesKeys.all],
  ReadProgressSeriesChanged: () => [bookKeys.all, seriesKeys.all],
  ReadProgressSeriesDeleted: () => [bookKeys.all, seriesKeys.all],
  // A series poster may be its first book's: a book's poster event refreshes both images.
  ThumbnailBookAdded: (e) => [thumbnailKeys.of('books', e.bookId), thumbnailKeys.of('series', e.seriesId)],
  ThumbnailBookDeleted: (e) => [thumbnailKeys.of('books', e.bookId), thumbnailKeys.of('series', e.seriesId)],
  ThumbnailSeriesAdded: (e) => [thumbnailKeys.of('series', e.seriesId)],
  ThumbnailSeriesDeleted: (e) => [thumbnailKeys.of('series', e.seriesId)],
  ThumbnailSeriesCollectionAdded: (e) => [thumbnailKeys.of('collections', e.collectionId)],
  ThumbnailSeriesCollectionDeleted: (e) => [thumbnailKeys.of('collections', e.collectionId)],
  ThumbnailReadListAdded: (e) => [thumbnailKeys.of('readlists', e.readListId)],
  ThumbnailReadListDeleted: (e) => [thumbnailKeys.of('readlists', e.readListId)],
};

const EVENT_TYPES = Object.keys(affected) as QuireEventType[];

/** Events a screen reacts to itself (not by refreshing queries): the import outcomes shown as toasts. */
const FORWARDED = ['BookImported'] as const satisfies readonly QuireEventType[];
type ForwardedEvent = (typeof FORWARDED)[number];
type LiveEventListener<T extends ForwardedEvent> = (data: QuireEventPayloads[T]) => void;
const listeners: { [T in ForwardedEvent]: Set<LiveEventListener<T>> } = { BookImported: new Set() };

/** Calls `listener` with each `type` event of the open stream while the caller is mounted (keep it stable). */
export function useLiveEventListener<T extends ForwardedEvent>(type: T, listener: LiveEventListener<T>): void {
  useEffect(() => {
    const set = listeners[type] as Set<LiveEventListener<T>>;
    set.add(listener);
    return () => void set.delete(listener);
  }, [type, listener]);
}

/** Live events are batched over this window before the queries they concern are refreshed. */
const INVALIDATION_WINDOW_MS = 500;

/**
 * One EventSource on `/sse/v1/events` while `enabled` (the user is authenticated), closed when it turns false or the
 * caller unmounts. The browser's own reconnect is the only retry.
 */
export function useLiveEvents(enabled: boolean, onSessionExpired: () => void): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(operationUrl('/sse/v1/events'), { withCredentials: true });
    const parse = (e: MessageEvent): unknown => {
      try {
        return JSON.parse(String(e.data));
      } catch {
        return undefined;
      }
    };
    // A scan sends hundreds of events a second: the keys they touch are gathered and refreshed once per window.
    const pending = new Map<string, QueryKey>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const keys = [...pending.values()];
      pending.clear();
      keys.forEach((queryKey) => void qc.invalidateQueries({ queryKey }));
    };
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (e) => {
        const keys = (affected[type] as (data: unknown) => QueryKey[])(parse(e));
        keys.forEach((queryKey) => pending.set(JSON.stringify(queryKey), queryKey));
        timer ??= setTimeout(flush, INVALIDATION_WINDOW_MS);
      });
    }
    for (const type of FORWARDED) {
      source.addEventListener(type, (e) => {
        const data = parse(e) as QuireEventPayloads[typeof type] | undefined;
        if (data) listeners[type].forEach((l) => l(data));
      });
    }
    source.addEventListener('TaskQueueStatus', (e) => {
      qc.setQueryData(taskQueueKey, parse(e) as QuireEventPayloads['TaskQueueStatus']);
    });
    source.addEventListener('SessionExpired', () => {
      source.close();
      onSessionExpired();
    });
    return () => {
      source.close();
      clearTimeout(timer);
    };
  }, [enabled, qc, onSessionExpired]);
}
