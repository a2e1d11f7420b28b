import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { bookKeys } from '../../api/books';
import { ApiError } from '../../api/client';
import { seriesKeys } from '../../api/series';
import { readListKeys } from '../../api/readlists';

export interface ProgressSaver<T> {
  /** Remember `value` as the reader's position; it is sent after a short quiet time. */
  save(value: T): void;
  /** Send what is pending now (before leaving the book). */
  flush(): void;
}

const RETRY_DELAYS_MS = [2_000, 5_000, 15_000];

/**
 * Sends the reader's position with `send`, at most one request in flight, once the reader has stayed `quietMs` on a
 * position: paging quickly through a book costs one request, not one per page. What is pending is sent at once, with
 * `keepalive`, when the reader closes or the tab is hidden, so the last page is never lost. A failed request is
 * retried a few times with the newest position, except for client errors (4xx), which would fail again.
 * Nothing is sent while `enabled` is false (incognito).
 */
export function useProgressSaver<T>(
  send: (value: T, opts: { keepalive: boolean }) => Promise<unknown>,
  { enabled, quietMs }: { enabled: boolean; quietMs: number },
): ProgressSaver<T> {
  const qc = useQueryClient();
  const state = useRef({
    pending: undefined as { value: T } | undefined,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
    inFlight: false,
    attempt: 0,
    saved: false,
  });
  const sendRef = useRef(send);
  sendRef.current = send;

  const run = useCallback(
    (keepalive: boolean) => {
      const s = state.current;
      clearTimeout(s.timer);
      s.timer = undefined;
      if (!s.pending || (s.inFlight && !keepalive)) return;
      const { value } = s.pending;
      s.pending = undefined;
      s.inFlight = true;
      sendRef
        .current(value, { keepalive })
        .then(() => {
          s.attempt = 0;
          s.saved = true;
        })
        .catch((e: unknown) => {
          const clientError = e instanceof ApiError && e.status >= 400 && e.status < 500;
          const delay = RETRY_DELAYS_MS[s.attempt];
          if (clientError || delay === undefined || keepalive) {
            s.attempt = 0;
            return;
          }
          s.attempt += 1;
          s.pending ??= { value };
          s.timer = setTimeout(() => run(false), delay);
        })
        .finally(() => {
          s.inFlight = false;
          if (s.pending && !s.timer) s.timer = setTimeout(() => run(false), quietMs);
        });
    },
    [quietMs],
  );

  const save = useCallback(
    (value: T) => {
      if (!enabled) return;
      const s = state.current;
      s.pending = { value };
      s.attempt = 0;
      clearTimeout(s.timer);
      s.timer = setTimeout(() => run(false), quietMs);
    },
    [enabled, quietMs, run],
  );

  const flush = useCallback(() => run(true), [run]);

  useEffect(() => {
    const s = state.current;
    const onHide = () => {
      if (document.visibilityState === 'hidden') run(true);
    };
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', flush);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', flush);
      run(true);
      // Book cards, the book page and the series show progress: refresh them once, when the reader closes.
      if (s.saved) {
        for (const queryKey of [bookKeys.all, seriesKeys.all, readListKeys.all]) {
          void qc.invalidateQueries({ queryKey, refetchType: 'none' });
        }
      }
    };
  }, [flush, run, qc]);

  return useMemo(() => ({ save, flush }), [save, flush]);
}
