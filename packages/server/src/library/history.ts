import { newId } from '../domain/ids.js';
import type { HistoryPageRequest, HistoryRepository, NewHistoricalEvent } from '../domain/history.js';

/** What the use cases that touch files need of the history: recording one event (a narrow port, easy to pass). */
export interface HistoryRecorder {
  record(event: NewHistoricalEvent): Promise<void>;
}

export interface HistoryLogger {
  warn(obj: object, msg: string): void;
}

/**
 * The history of what happened to files on disk (engine.md §11.5): conversions, deletions, imports, removed
 * duplicate pages. Recorded by the use case that did it, once the file change is done; read through
 * `GET /api/v1/history`, narrowed to what the caller may see.
 */
export class History implements HistoryRecorder {
  private readonly now: () => number;

  constructor(private readonly d: { history: HistoryRepository; logger: HistoryLogger; now?: () => number }) {
    this.now = d.now ?? Date.now;
  }

  /**
   * Never throws: the file change it describes has already happened, and the use case must finish its own
   * bookkeeping (rows, events) whether or not the record could be written; a failure is logged.
   */
  async record(event: NewHistoricalEvent): Promise<void> {
    const now = this.now();
    try {
      await this.d.history.insert({ ...event, id: newId(now), timestamp: new Date(now).toISOString() });
    } catch (err) {
      this.d.logger.warn({ err, event }, 'Historical event could not be recorded');
    }
  }

  list(request: HistoryPageRequest) {
    return this.d.history.page(request);
  }
}
