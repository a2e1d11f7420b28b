import { sql, type SqlBool } from 'kysely';
import type {
  HistoricalEvent,
  HistoricalEventType,
  HistoryPageRequest,
  HistoryRepository,
  HistorySortProperty,
} from '../../domain/history.js';
import type { ContentViewer } from '../../domain/restrictions.js';
import type { Db } from '../database.js';
import type { HistoricalEventTable } from '../schema.js';
import { seesEverything } from '../../domain/restrictions.js';
import { seriesVisibleTo, visibilityOf, type Sql } from '../queries/conditions.js';

const SORT_COLUMNS: Record<HistorySortProperty, 'type' | 'book_id' | 'series_id' | 'timestamp'> = {
  type: 'type',
  bookId: 'book_id',
  seriesId: 'series_id',
  timestamp: 'timestamp',
};

/**
 * What a viewer may see of the history: events of the libraries shared with him (the library is recorded with each
 * event, so this holds after the series is gone), and when he has age or label rules, only events about a series
 * that still exists and passes them (a deleted series can no longer be checked, as for live events).
 */
function visibleTo(viewer: ContentViewer): Sql | null {
  if (seesEverything(viewer)) return null;
  const v = visibilityOf(viewer);
  const parts: Sql[] = [];
  if (v.libraryIds !== null)
    parts.push(v.libraryIds.length ? sql<SqlBool>`h.library_id IN (${sql.join(v.libraryIds)})` : sql<SqlBool>`FALSE`);
  if (v.ageRestriction || v.labelsAllow.length || v.labelsExclude.length)
    parts.push(sql<SqlBool>`EXISTS (SELECT 1 FROM series s JOIN series_metadata sm ON sm.series_id = s.id
      WHERE s.id = h.series_id AND ${seriesVisibleTo(viewer)})`);
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}

export class KyselyHistoryRepository implements HistoryRepository {
  constructor(private readonly db: Db) {}

  async insert(e: HistoricalEvent, t: Db = this.db): Promise<void> {
    await t
      .insertInto('historical_event')
      .values({
        id: e.id,
        type: e.type,
        book_id: e.bookId,
        series_id: e.seriesId,
        library_id: e.libraryId,
        timestamp: e.timestamp,
        properties: JSON.stringify(e.properties),
      })
      .execute();
  }

  async page(req: HistoryPageRequest): Promise<{ events: HistoricalEvent[]; total: number }> {
    let base = this.db.selectFrom('historical_event as h');
    const visible = req.viewer ? visibleTo(req.viewer) : null;
    if (visible) base = base.where(visible);
    if (req.types?.length) base = base.where('h.type', 'in', [...req.types]);
    const count = await base.select((eb) => eb.fn.countAll<number | bigint>().as('n')).executeTakeFirstOrThrow();
    let q = base.selectAll('h');
    for (const s of req.sort) q = q.orderBy(`h.${SORT_COLUMNS[s.property]}`, s.descending ? 'desc' : 'asc');
    // Ids grow with time: events recorded in the same millisecond keep the order their timestamps ask for.
    const byTime = req.sort.find((s) => s.property === 'timestamp');
    q = q.orderBy('h.id', byTime && !byTime.descending ? 'asc' : 'desc');
    const rows = await q.limit(req.limit).offset(req.offset).execute();
    return { events: rows.map(toEvent), total: Number(count.n) };
  }
}

function toEvent(r: HistoricalEventTable): HistoricalEvent {
  return {
    id: r.id,
    type: r.type as HistoricalEventType,
    bookId: r.book_id,
    seriesId: r.series_id,
    libraryId: r.library_id,
    timestamp: r.timestamp,
    properties: JSON.parse(r.properties) as Record<string, string>,
  };
}
