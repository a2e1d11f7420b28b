import type { EventBus } from '../events/bus.js';
import type { TaskLogger } from './handlers.js';
import type { SharedTaskQueue } from './queue.js';

export interface TaskQueueStatusOptions {
  queue: SharedTaskQueue;
  events: EventBus;
  logger: TaskLogger;
  /** Komga sends the status every 10 s, even when the queue is empty (api.md §6). */
  intervalMs?: number;
  /**
   * After a change made through the queue the status goes out at once, then at most once per this delay
   * (a trailing one carries the latest counts), so a short burst of work is still seen by the client.
   */
  debounceMs?: number;
  /** When given and false, nobody is listening: skip the count query. */
  hasListeners?: () => boolean;
}

/**
 * Emits `TaskQueueStatus {count, countByType}` on the event bus every `intervalMs`, and shortly after the
 * queue changes. The SSE route delivers it to admins only (`EVENT_AUDIENCE`); with no SSE client connected
 * the bus has no listener and the event goes nowhere. Returns a function that stops it.
 */
export function startTaskQueueStatus(opts: TaskQueueStatusOptions): () => void {
  const { queue, events, logger } = opts;
  const intervalMs = opts.intervalMs ?? 10_000;
  const debounceMs = opts.debounceMs ?? 1_000;
  let stopped = false;
  let pending: NodeJS.Timeout | undefined;

  const emit = async () => {
    if (stopped || (opts.hasListeners && !opts.hasListeners())) return;
    try {
      const data = await queue.counts();
      if (!stopped) events.emit({ type: 'TaskQueueStatus', data });
    } catch (err) {
      logger.debug({ err }, 'Could not count queued tasks');
    }
  };

  const ticker = setInterval(() => void emit(), intervalMs);
  ticker.unref();
  let trailing = false;
  const unsubscribe = queue.onChange(() => {
    if (stopped) return;
    if (pending) {
      trailing = true;
      return;
    }
    void emit();
    const closeWindow = () => {
      pending = undefined;
      if (!trailing) return;
      trailing = false;
      void emit();
      pending = setTimeout(closeWindow, debounceMs);
      pending.unref();
    };
    pending = setTimeout(closeWindow, debounceMs);
    pending.unref();
  });

  return () => {
    stopped = true;
    clearInterval(ticker);
    if (pending) clearTimeout(pending);
    unsubscribe();
  };
}
