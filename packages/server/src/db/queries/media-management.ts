import { sql } from 'kysely';
import type { Db } from '../database.js';

/** What the media management screens list beyond the book conditions (admins; no visibility rules). */
export class MediaManagementQueries {
  constructor(private readonly db: Db) {}

  /**
   * Series without any poster: none of their own selected, and none on any of their books, so nothing can stand
   * for them (a series shows its own poster, else one of its books'). Series in the trash are left out.
   */
  async seriesWithoutPoster(page: { offset: number; limit: number }): Promise<{ ids: string[]; total: number }> {
    const base = this.db
      .selectFrom('series as s')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .where('s.deleted_date', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('thumbnail_series as t')
              .select('t.id')
              .whereRef('t.series_id', '=', 's.id')
              .where('t.selected', '=', 1),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('book as b')
              .innerJoin('thumbnail_book as tb', 'tb.book_id', 'b.id')
              .select('tb.id')
              .whereRef('b.series_id', '=', 's.id')
              .where('tb.selected', '=', 1),
          ),
        ),
      );
    const count = await base.select((eb) => eb.fn.countAll<number | bigint>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .select('s.id')
      .orderBy(sql`lower(sm.title_sort)`)
      .orderBy('s.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { ids: rows.map((r) => r.id), total: Number(count.n) };
  }
}
