import type { Db } from '../database.js';
import type { ContentViewer } from '../../domain/restrictions.js';
import { seesEverything } from '../../domain/restrictions.js';
import { seriesVisibleTo } from './conditions.js';

/**
 * Which of some series or books a viewer may see, by the rules every list applies (library sharing, age
 * rating, sharing labels: conditions.ts). Ids that do not exist (any more) are not visible.
 */
export class VisibilityQueries {
  constructor(private readonly db: Db) {}

  async series(viewer: ContentViewer, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('series as s')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select('s.id')
      .where('s.id', 'in', ids)
      .where(seriesVisibleTo(viewer))
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async books(viewer: ContentViewer, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('book as b')
      .innerJoin('series as s', 's.id', 'b.series_id')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select('b.id')
      .where('b.id', 'in', ids)
      .where(seriesVisibleTo(viewer))
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** As the collections module decides: some member visible, or no member at all and nothing hidden. */
  async collection(viewer: ContentViewer, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('collection_series as cs')
      .innerJoin('series as s', 's.id', 'cs.series_id')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select((eb) => [
        eb.fn.countAll<number | bigint>().as('total'),
        eb.fn.sum<number | bigint>(eb.case().when(seriesVisibleTo(viewer)).then(1).else(0).end()).as('visible'),
      ])
      .where('cs.collection_id', '=', id)
      .executeTakeFirstOrThrow();
    return this.visibleSet(row, viewer, 'collection', id);
  }

  async readList(viewer: ContentViewer, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('readlist_book as rb')
      .innerJoin('book as b', 'b.id', 'rb.book_id')
      .innerJoin('series as s', 's.id', 'b.series_id')
      .innerJoin('series_metadata as sm', 'sm.series_id', 's.id')
      .select((eb) => [
        eb.fn.countAll<number | bigint>().as('total'),
        eb.fn.sum<number | bigint>(eb.case().when(seriesVisibleTo(viewer)).then(1).else(0).end()).as('visible'),
      ])
      .where('rb.readlist_id', '=', id)
      .executeTakeFirstOrThrow();
    return this.visibleSet(row, viewer, 'readlist', id);
  }

  private async visibleSet(
    counts: { total: number | bigint; visible: number | bigint | null },
    viewer: ContentViewer,
    table: 'collection' | 'readlist',
    id: string,
  ): Promise<boolean> {
    if (Number(counts.visible ?? 0) > 0) return true;
    if (Number(counts.total) > 0 || !seesEverything(viewer)) return false;
    return (await this.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }
}
