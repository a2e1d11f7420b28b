/**
 * What the metrics of api.md §9.1 are made of. Task figures are recorded when a task ends, by the task runner, and
 * kept in the database per type and hour: they survive a restart and add up the work of every instance.
 */

/** One finished task run. */
export interface TaskRun {
  /** The task's type (`ScanLibrary`, `AnalyzeBook`…), the metrics' `type` tag. */
  type: string;
  durationMs: number;
  failed: boolean;
  finishedAt: Date;
}

/** The runs of one task type over a period. */
export interface TaskTypeFigures {
  type: string;
  count: number;
  failures: number;
  totalMs: number;
  maxMs: number;
}

/** The figures the metrics count over: the last 24 hours, as the reference's registry steps by a day. */
export const TASK_METRICS_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface TaskMetricsRepository {
  /** Adds one run to its type's figures of the hour it finished in. */
  record(run: TaskRun): Promise<void>;
  /** Figures per type of the runs that finished in the hours from `since`'s on, by type name. */
  figuresSince(since: Date): Promise<TaskTypeFigures[]>;
  /** Forgets the hours that ended before `cutoff`; returns how many rows went. */
  deleteBefore(cutoff: Date): Promise<number>;
}

/** The figures of a library's content, each a value per library id (libraries with none are absent). */
export interface LibraryFigures {
  series: Map<string, number>;
  books: Map<string, number>;
  booksFileSize: Map<string, number>;
  sidecars: Map<string, number>;
}
