import type { Db } from '../database.js';
import type { BookImportJournal, BookImportRecord } from '../../domain/book-imports.js';

/** The journal of imports in progress (migration 0013). */
export class KyselyBookImportJournal implements BookImportJournal {
  constructor(private readonly db: Db) {}

  async find(taskId: string): Promise<BookImportRecord | undefined> {
    const r = await this.db.selectFrom('book_import').selectAll().where('task_id', '=', taskId).executeTakeFirst();
    if (!r) return undefined;
    return {
      taskId: r.task_id,
      stage: r.stage === 'RECORDED' ? 'RECORDED' : 'PLACING',
      targetUrl: r.target_url,
      bookId: r.book_id,
      upgradedUrl: r.upgraded_url,
    };
  }

  async save(record: BookImportRecord, now: Date): Promise<void> {
    const row = {
      stage: record.stage,
      target_url: record.targetUrl,
      book_id: record.bookId,
      upgraded_url: record.upgradedUrl,
    };
    await this.db
      .insertInto('book_import')
      .values({ task_id: record.taskId, ...row, created_date: now.toISOString() })
      .onConflict((c) => c.column('task_id').doUpdateSet(row))
      .execute();
  }

  async delete(taskId: string): Promise<void> {
    await this.db.deleteFrom('book_import').where('task_id', '=', taskId).execute();
  }
}
