import type { Selectable } from 'kysely';
import { atomically, type Db } from '../database.js';
import type { TransientBookTable } from '../schema.js';
import type { MediaAnalysis } from '../../domain/media.js';
import type { TransientBook, TransientBookRepository } from '../../domain/transient-books.js';

const toBook = (r: Selectable<TransientBookTable>): TransientBook => ({
  id: r.id,
  name: r.name,
  url: r.url,
  path: r.path,
  fileSize: r.file_size,
  fileLastModified: r.file_last_modified,
  analysis: r.analysis === null ? null : (JSON.parse(r.analysis) as MediaAnalysis),
  seriesId: r.series_id,
  number: r.number,
});

/** Transient books (engine.md §9.1) with their expiry; expired rows are dropped on the next save. */
export class KyselyTransientBookRepository implements TransientBookRepository {
  constructor(private readonly db: Db) {}

  async save(books: readonly TransientBook[], now: Date, ttlMs: number): Promise<void> {
    const expiresAt = now.getTime() + ttlMs;
    await atomically(this.db, async (t) => {
      await t.deleteFrom('transient_book').where('expires_at', '<=', now.getTime()).execute();
      for (const b of books) {
        const row = {
          name: b.name,
          url: b.url,
          path: b.path,
          file_size: b.fileSize,
          file_last_modified: b.fileLastModified,
          analysis: b.analysis === null ? null : JSON.stringify(b.analysis),
          series_id: b.seriesId,
          number: b.number,
          expires_at: expiresAt,
        };
        await t
          .insertInto('transient_book')
          .values({ id: b.id, ...row })
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute();
      }
    });
  }

  async touch(id: string, now: Date, ttlMs: number): Promise<TransientBook | null> {
    const row = await this.db
      .updateTable('transient_book')
      .set({ expires_at: now.getTime() + ttlMs })
      .where('id', '=', id)
      .where('expires_at', '>', now.getTime())
      .returningAll()
      .executeTakeFirst();
    return row ? toBook(row) : null;
  }
}
