import { sql } from 'kysely';
import type { TaskMetricsRepository, TaskRun, TaskTypeFigures } from '../../domain/metrics.js';
import { compiledQuery } from '../compiled.js';
import type { Db } from '../database.js';

const HOUR_MS = 60 * 60 * 1000;
const hourOf = (d: Date) => Math.floor(d.getTime() / HOUR_MS);

/** Run after every task: compiled once (db/compiled.ts). */
const recordQuery = compiledQuery((db, type: string, hour: number, failures: number, durationMs: number) =>
  db
    .insertInto('task_metric')
    .values({ type, hour, count: 1, failures, total_ms: durationMs, max_ms: durationMs })
    .onConflict((oc) =>
      oc.columns(['type', 'hour']).doUpdateSet({
        count: sql`task_metric.count + 1`,
        failures: sql`task_metric.failures + ${failures}`,
        total_ms: sql`task_metric.total_ms + excluded.total_ms`,
        max_ms: sql`CASE WHEN excluded.max_ms > task_metric.max_ms THEN excluded.max_ms ELSE task_metric.max_ms END`,
      }),
    ),
);

export class KyselyTaskMetricsRepository implements TaskMetricsRepository {
  constructor(private readonly db: Db) {}

  async record(run: TaskRun): Promise<void> {
    // One statement that adds to the row: instances sharing the database never overwrite each other's runs.
    await recordQuery(this.db, run.type, hourOf(run.finishedAt), run.failed ? 1 : 0, run.durationMs);
  }

  async figuresSince(since: Date): Promise<TaskTypeFigures[]> {
    const rows = await this.db
      .selectFrom('task_metric')
      .select((eb) => [
        'type',
        eb.fn.sum<number>('count').as('count'),
        eb.fn.sum<number>('failures').as('failures'),
        eb.fn.sum<number>('total_ms').as('totalMs'),
        eb.fn.max<number>('max_ms').as('maxMs'),
      ])
      .where('hour', '>=', hourOf(since))
      .groupBy('type')
      .orderBy('type')
      .execute();
    return rows.map((r) => ({
      type: r.type,
      count: Number(r.count),
      failures: Number(r.failures),
      totalMs: Number(r.totalMs),
      maxMs: Number(r.maxMs),
    }));
  }

  async deleteBefore(cutoff: Date): Promise<number> {
    const result = await this.db.deleteFrom('task_metric').where('hour', '<', hourOf(cutoff)).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
