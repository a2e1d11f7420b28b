import type { ExpressionBuilder, OnConflictBuilder } from 'kysely';
import { atomically, type Db } from '../database.js';
import { compiledQuery } from '../compiled.js';
import { oneAtATime } from '../dialect.js';
import type { DB } from '../schema.js';

/** A task as stored; the payload is the task's JSON, which this file never looks into. */
export interface StoredTask {
  uniqueId: string;
  kind: string;
  priority: number;
  groupId: string | null;
  payload: string;
  owner: string | null;
  runAgain: boolean;
  seq: number;
  createdDate: string;
  lastModifiedDate: string;
  /** Not handed out while an AnalyzeBook is queued or running (tasks/definitions.ts, `waitsForAnalyses`). */
  afterAnalyses: boolean;
}

export type NewStoredTask = Pick<StoredTask, 'uniqueId' | 'kind' | 'priority' | 'groupId' | 'payload'> &
  Partial<Pick<StoredTask, 'afterAnalyses'>>;

/** Rows per INSERT: 10 values each stays far below every dialect's bound-parameter limit. */
const CHUNK = 500;

/**
 * The SQL of the task queue (engine.md §8.1), Kysely builder only. Every statement that changes the
 * ownership of a row re-checks, in the same statement, the conditions it relies on, so two runners (or two
 * instances sharing the database) cannot take the same task or two tasks of one group.
 */
export class TaskRepository {
  constructor(private readonly db: Db) {}

  /**
   * Upsert on unique id. A queued row gets the new priority, group, payload and a fresh place at the back of
   * its priority (Komga); a running row keeps running and is flagged to run again when it ends (Komga
   * loses that re-submission). Within one call the last task with a given id wins.
   */
  async upsert(tasks: readonly NewStoredTask[], now: string, t: Db = this.db): Promise<void> {
    if (tasks.length === 0) return;
    const byId = new Map<string, NewStoredTask>();
    for (const task of tasks) {
      byId.delete(task.uniqueId);
      byId.set(task.uniqueId, task);
    }
    const unique = [...byId.values()];
    const write = async (tx: Db) => {
      const [top] = (await topSeqQuery(tx)).rows;
      let seq = Number(top?.seq ?? 0);
      if (unique.length === 1) {
        // A runner's follow-ups: usually one task a submit.
        const [task] = unique as [NewStoredTask];
        const { uniqueId, kind, priority, groupId, payload, afterAnalyses } = task;
        await insertOneQuery(tx, uniqueId, kind, priority, groupId, payload, afterAnalyses ? 1 : 0, seq + 1, now);
        return;
      }
      for (let i = 0; i < unique.length; i += CHUNK) {
        const rows = unique
          .slice(i, i + CHUNK)
          .map((t) =>
            taskRow(t.uniqueId, t.kind, t.priority, t.groupId, t.payload, t.afterAnalyses ? 1 : 0, ++seq, now),
          );
        await tx.insertInto('task').values(rows).onConflict(requeue).execute();
      }
    };
    // The max(seq) read and the inserts must not interleave with another submit.
    await atomically(t, write);
  }

  /**
   * Takes the next available task for `owner` in one statement: unowned, its group idle, no analysis queued or
   * running if it waits for them, highest priority first, then oldest submit. The outer WHERE re-checks
   * availability, so a concurrent runner cannot take the same row; undefined when nothing is available (or another
   * runner won the race). On PostgreSQL the takes run one at a time: a concurrent take re-checks its own row only,
   * not the group's other rows, so two runners could otherwise take two tasks of one group at once.
   */
  async takeNext(owner: string, t: Db = this.db): Promise<StoredTask | undefined> {
    return oneAtATime(t, 'quire.task-take', (tx) => this.takeNextNow(owner, tx));
  }

  private async takeNextNow(owner: string, t: Db): Promise<StoredTask | undefined> {
    const [row] = (await takeNextQuery(t, owner)).rows;
    return row && toStoredTask(row);
  }

  /** Takes the task for `owner` if it is still available; false when someone else was faster. */
  async claim(uniqueId: string, owner: string, t: Db = this.db): Promise<boolean> {
    const result = await oneAtATime(t, 'quire.task-take', (tx) =>
      tx
        .updateTable('task')
        .set({ owner })
        .where('unique_id', '=', uniqueId)
        .where('owner', 'is', null)
        .where(groupIsIdle)
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) > 0;
  }

  async find(uniqueId: string, t: Db = this.db): Promise<StoredTask | undefined> {
    const row = await t.selectFrom('task').selectAll().where('unique_id', '=', uniqueId).executeTakeFirst();
    return row && toStoredTask(row);
  }

  /**
   * Ends a run: deletes the row, or, when it was submitted again while running, queues it again with what
   * that submission wrote. Returns what happened ('missing' if the row was not running).
   */
  async finish(uniqueId: string, t: Db = this.db): Promise<'deleted' | 'requeued' | 'missing'> {
    const deleted = await finishQuery(t, uniqueId);
    if (Number(deleted.numAffectedRows) > 0) return 'deleted';
    const requeued = await t
      .updateTable('task')
      .set({ owner: null, run_again: 0 })
      .where('unique_id', '=', uniqueId)
      .where('owner', 'is not', null)
      .executeTakeFirst();
    return Number(requeued.numUpdatedRows) > 0 ? 'requeued' : 'missing';
  }

  /** Deletes every queued (unowned) task and every pending re-run of a running one; returns how many. */
  async deleteQueued(t: Db = this.db): Promise<number> {
    const deleted = await t.deleteFrom('task').where('owner', 'is', null).executeTakeFirst();
    const reruns = await t
      .updateTable('task')
      .set({ run_again: 0 })
      .where('owner', 'is not', null)
      .where('run_again', '=', 1)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) + Number(reruns.numUpdatedRows);
  }

  /** Makes every owned task available again (start-up after a crash); returns how many. */
  async disownAll(t: Db = this.db): Promise<number> {
    const result = await t
      .updateTable('task')
      .set({ owner: null, run_again: 0 })
      .where('owner', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Number of tasks (queued and running) per kind. */
  async countByKind(t: Db = this.db): Promise<Map<string, number>> {
    const rows = await t
      .selectFrom('task')
      .select((eb) => ['kind', eb.fn.countAll().as('n')])
      .groupBy('kind')
      .execute();
    return new Map(rows.map((r) => [r.kind, Number(r.n)]));
  }

  /** Per kind: how many tasks wait and how many a runner holds (the admin's task view). */
  async countByKindAndState(t: Db = this.db): Promise<{ kind: string; queued: number; running: number }[]> {
    const rows = await t
      .selectFrom('task')
      .select((eb) => [
        'kind',
        eb.fn.countAll<number | bigint>().as('n'),
        eb.fn.count<number | bigint>('owner').as('running'),
      ])
      .groupBy('kind')
      .orderBy('kind')
      .execute();
    return rows.map((r) => ({ kind: r.kind, queued: Number(r.n) - Number(r.running), running: Number(r.running) }));
  }

  async findAll(t: Db = this.db): Promise<StoredTask[]> {
    const rows = await t.selectFrom('task').selectAll().orderBy('priority', 'desc').orderBy('seq', 'asc').execute();
    return rows.map(toStoredTask);
  }
}

// Every task run takes, ends and counts itself, and most submit follow-ups: the same SQL each time, compiled once.
const takeNextQuery = compiledQuery((db, owner: string) =>
  db
    .updateTable('task')
    .set({ owner })
    .where('unique_id', '=', (eb) =>
      eb
        .selectFrom('task')
        .select('unique_id')
        .where('owner', 'is', null)
        .where(groupIsIdle)
        .where(analysesAreOver)
        .orderBy('priority', 'desc')
        .orderBy('seq', 'asc')
        .limit(1),
    )
    .where('owner', 'is', null)
    .where(groupIsIdle)
    .returningAll(),
);

const finishQuery = compiledQuery((db, uniqueId: string) =>
  db.deleteFrom('task').where('unique_id', '=', uniqueId).where('owner', 'is not', null).where('run_again', '=', 0),
);

/**
 * A task submitted again: a queued row takes the new values and a fresh place; a running one is flagged to run again.
 */
const requeue = (oc: OnConflictBuilder<DB, 'task'>) =>
  oc.column('unique_id').doUpdateSet((eb) => ({
    priority: eb.ref('excluded.priority'),
    group_id: eb.ref('excluded.group_id'),
    payload: eb.ref('excluded.payload'),
    after_analyses: eb.ref('excluded.after_analyses'),
    seq: eb.ref('excluded.seq'),
    last_modified_date: eb.ref('excluded.last_modified_date'),
    run_again: eb.case().when('task.owner', 'is', null).then(0).else(1).end(),
  }));

/** A queued task's row; its arguments stand in for bound values in {@link insertOneQuery}. */
const taskRow = (
  uniqueId: string,
  kind: string,
  priority: number,
  groupId: string | null,
  payload: string,
  afterAnalyses: number,
  seq: number,
  now: string,
) => ({
  unique_id: uniqueId,
  kind,
  priority,
  group_id: groupId,
  payload,
  after_analyses: afterAnalyses,
  owner: null,
  run_again: 0,
  seq,
  created_date: now,
  last_modified_date: now,
});

const insertOneQuery = compiledQuery((db, ...row: Parameters<typeof taskRow>) =>
  db
    .insertInto('task')
    .values(taskRow(...row))
    .onConflict(requeue),
);

const topSeqQuery = compiledQuery((db) => db.selectFrom('task').select((eb) => eb.fn.max('seq').as('seq')));

/** No task of the same group is running (tasks without a group are never blocked). */
function groupIsIdle(eb: ExpressionBuilder<DB, 'task'>) {
  return eb.or([
    eb('task.group_id', 'is', null),
    eb.not(
      eb.exists(
        eb
          .selectFrom('task as running')
          .select('running.unique_id')
          .whereRef('running.group_id', '=', 'task.group_id')
          .where('running.owner', 'is not', null),
      ),
    ),
  ]);
}

/**
 * The task does not wait for analyses, or none is queued or running (an index lookup: `task_kind_idx`). Checked by
 * the take only: a task taken while an analysis is being submitted runs beside it, which costs memory, not correctness.
 */
function analysesAreOver(eb: ExpressionBuilder<DB, 'task'>) {
  return eb.or([
    eb('task.after_analyses', '=', 0),
    eb.not(
      eb.exists(
        eb.selectFrom('task as analysis').select('analysis.unique_id').where('analysis.kind', '=', 'AnalyzeBook'),
      ),
    ),
  ]);
}

type TaskRow = {
  unique_id: string;
  kind: string;
  priority: number;
  group_id: string | null;
  payload: string;
  owner: string | null;
  run_again: number;
  seq: number;
  created_date: string;
  last_modified_date: string;
  after_analyses: number;
};

function toStoredTask(row: TaskRow): StoredTask {
  return {
    uniqueId: row.unique_id,
    kind: row.kind,
    priority: row.priority,
    groupId: row.group_id,
    payload: row.payload,
    owner: row.owner,
    runAgain: Boolean(row.run_again),
    seq: row.seq,
    createdDate: row.created_date,
    lastModifiedDate: row.last_modified_date,
    afterAnalyses: Boolean(row.after_analyses),
  };
}
