import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuireEventPayloads } from '@quire/api';
import { client } from './client';
import { taskQueueKey } from './events';

/** The server's task queue (api.md §9.8): only observable through the SSE `TaskQueueStatus` event (admins). */
export type TaskQueueStatus = QuireEventPayloads['TaskQueueStatus'];

/** The last status the server pushed, or undefined before the first one. Never fetched. */
export const useTaskQueueStatus = () =>
  useQuery<TaskQueueStatus>({ queryKey: taskQueueKey, queryFn: skipToken, staleTime: Infinity });

/** Removes every queued task (running ones finish); answers how many were removed. */
export function useCancelTasks() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => client.delete('/api/v1/tasks'),
    onSuccess: () => {
      // The next TaskQueueStatus event brings the truth; until then, show the queue as empty.
      qc.setQueryData<TaskQueueStatus>(taskQueueKey, { count: 0, countByType: {} });
    },
  });
}

export const taskOverviewKey = ['tasks', 'overview'] as const;

/**
 * Queued and running tasks per type (Quire's `GET /api/v1/tasks/overview`, admins). Refetched every few seconds
 * while shown: the queue changes without an event per task.
 */
export const useTaskOverview = () =>
  useQuery({
    queryKey: taskOverviewKey,
    queryFn: () => client.get('/api/v1/tasks/overview'),
    refetchInterval: 2000,
  });
