import { useEffect } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { QuireEventPayloads, QuireEventType } from '@quire/api';
import { apiUrl } from './client';
import { libraryKeys } from './libraries';

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
};

const EVENT_TYPES = Object.keys(affected) as QuireEventType[];

/**
 * One EventSource on `/sse/v1/events` while `enabled` (the user is authenticated), closed when it turns false or the
 * caller unmounts. The browser's own reconnect is the only retry.
 */
export function useLiveEvents(enabled: boolean, onSessionExpired: () => void): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(apiUrl('/sse/v1/events'), { withCredentials: true });
    const parse = (e: MessageEvent): unknown => {
      try {
        return JSON.parse(String(e.data));
      } catch {
        return undefined;
      }
    };
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (e) => {
        const keys = (affected[type] as (data: unknown) => QueryKey[])(parse(e));
        keys.forEach((queryKey) => void qc.invalidateQueries({ queryKey }));
      });
    }
    source.addEventListener('TaskQueueStatus', (e) => {
      qc.setQueryData(taskQueueKey, parse(e) as QuireEventPayloads['TaskQueueStatus']);
    });
    source.addEventListener('SessionExpired', () => {
      source.close();
      onSessionExpired();
    });
    return () => source.close();
  }, [enabled, qc, onSessionExpired]);
}
