/**
 * The journal of book imports in progress (engine.md §9.2). A file is placed in a series folder and then recorded in
 * the database, and a MOVE's source removed after that: a process killed between two of these steps leaves files
 * that the task's next run could not tell from someone else's. The journal says what the interrupted run had done.
 */
export interface BookImportRecord {
  /** The ImportBook task's unique id. */
  taskId: string;
  /**
   * PLACING: written just before the file takes its name in the series folder (it may or may not have, depending
   * on whether the temporary file is still there). RECORDED: the book row is written; what follows it (a move's
   * source removed, an upgrade's old file deleted, history and events) may not be done.
   */
  stage: 'PLACING' | 'RECORDED';
  /** `file:` URL of the book's file in the series folder. */
  targetUrl: string;
  /** The recorded book (RECORDED). */
  bookId: string | null;
  /** `file:` URL of the upgraded book's old file, to delete after the record. */
  upgradedUrl: string | null;
}

export interface BookImportJournal {
  find(taskId: string): Promise<BookImportRecord | undefined>;
  /** Inserts or replaces the task's record. */
  save(record: BookImportRecord, now: Date): Promise<void>;
  delete(taskId: string): Promise<void>;
}
