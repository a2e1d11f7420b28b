/**
 * What several instances sharing one PostgreSQL database keep there besides the repositories (issue 20): which
 * instances are alive, which scheduled runs one of them has claimed, event payloads too large for NOTIFY, the
 * notification channel itself, and the counts and cancellation of graphile-worker's jobs. The only file of this
 * part that writes SQL. Its three small tables are created here, beside graphile-worker's own schema (which
 * graphile-worker migrates itself), so that the queue and the bus work over any PostgreSQL database.
 */
import pg from 'pg';
import { MIGRATION_LOCK } from './database.js';

export type PgPool = pg.Pool;

/** graphile-worker's schema (its default). */
const WORKER_SCHEMA = 'graphile_worker';

export function openPgPool(connectionString: string, max = 10): PgPool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client that loses its server (a restart) emits here; without a listener the process would crash.
  pool.on('error', () => undefined);
  return pool;
}

/** One graphile-worker job as Quire submits it: the task kind is the job's task identifier. */
export interface JobSpec {
  identifier: string;
  payload: unknown;
  queueName: string;
  jobKey: string;
  /** graphile-worker's: lower runs sooner. */
  priority: number;
  maxAttempts: number;
  /** When it may run (ISO-8601, microseconds allowed): graphile-worker's order after the priority. */
  runAt: string;
  /** graphile-worker's job flags: a runner skips a job with a flag its `forbiddenFlags` names. */
  flags?: string[];
}

export class ClusterStore {
  private constructor(private readonly pool: PgPool) {}

  /** The store over `pool`, its tables created if missing (idempotent, so every instance does it at start). */
  static async open(pool: PgPool): Promise<ClusterStore> {
    const store = new ClusterStore(pool);
    await store.ensureSchema();
    return store;
  }

  private async ensureSchema(): Promise<void> {
    // Instances starting together would race on `create table if not exists` (it is not atomic in PostgreSQL: the
    // loser fails on pg_type's unique index), so one creates them at a time, under a transaction-level lock.
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query("select pg_advisory_xact_lock(hashtext('quire_cluster_schema'))");
      await client.query(`
        create table if not exists quire_instance (
          id text primary key,
          heartbeat_at timestamptz not null default now()
        );
        create table if not exists quire_schedule_claim (
          name text primary key,
          claimed_at timestamptz not null
        );
        create table if not exists quire_event_payload (
          id bigint primary key generated always as identity,
          payload text not null,
          created_at timestamptz not null default now()
        );`);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Runs `work` while no other instance migrates: graphile-worker's migrations take the same lock as Quire's own
   * (`migrate` in database.ts), whose first step lists every table of the database and fails on a column another
   * instance's migration drops meanwhile.
   */
  migrating<T>(work: () => Promise<T>): Promise<T> {
    return this.exclusively(MIGRATION_LOCK, work);
  }

  /** Runs `work` while no other instance runs work under the same `name` (a session-level advisory lock). */
  async exclusively<T>(name: string, work: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [name]);
      try {
        return await work();
      } finally {
        await client.query('select pg_advisory_unlock(hashtext($1))', [name]);
      }
    } finally {
      client.release();
    }
  }

  /** Records that `instanceId` is alive now (its first call registers it). */
  async heartbeat(instanceId: string): Promise<void> {
    await this.pool.query(
      `insert into quire_instance (id, heartbeat_at) values ($1, now())
       on conflict (id) do update set heartbeat_at = now()`,
      [instanceId],
    );
  }

  async leave(instanceId: string): Promise<void> {
    await this.pool.query('delete from quire_instance where id = $1', [instanceId]);
  }

  /**
   * The graphile-worker workers holding jobs whose instance (the part of the worker id before `/`) has no
   * heartbeat newer than `staleMs`: it crashed, was killed or stopped with tasks still running. Instances whose
   * heartbeat is stale are forgotten at the same time.
   */
  async workersOfDeadInstances(staleMs: number): Promise<string[]> {
    await this.pool.query(`delete from quire_instance where heartbeat_at < now() - $1 * interval '1 millisecond'`, [
      staleMs,
    ]);
    const { rows } = await this.pool.query<{ locked_by: string }>(
      `select distinct locked_by from ${WORKER_SCHEMA}.jobs
       where locked_by is not null
         and split_part(locked_by, '/', 1) not in (select id from quire_instance)`,
    );
    return rows.map((r) => r.locked_by);
  }

  /**
   * Claims the run of `name` for the caller unless some instance claimed it less than `minGapMs` ago: of several
   * instances whose timers fire for the same scheduled run, exactly one gets true.
   */
  async claim(name: string, minGapMs: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `insert into quire_schedule_claim (name, claimed_at) values ($1, now())
       on conflict (name) do update set claimed_at = now()
       where quire_schedule_claim.claimed_at <= now() - $2 * interval '1 millisecond'`,
      [name, minGapMs],
    );
    return (rowCount ?? 0) > 0;
  }

  /**
   * Adds or replaces jobs in one statement (graphile-worker's `add_jobs`): a queued job with the same key takes the
   * new payload, priority and queue and moves to the back; a running one keeps running and a new job follows it.
   */
  async addJobs(specs: readonly JobSpec[]): Promise<void> {
    if (specs.length === 0) return;
    const rows = specs.map((s) => ({
      identifier: s.identifier,
      payload: s.payload,
      queue_name: s.queueName,
      job_key: s.jobKey,
      priority: s.priority,
      max_attempts: s.maxAttempts,
      run_at: s.runAt,
      flags: s.flags ?? null,
    }));
    await this.pool.query(
      `select count(*) from ${WORKER_SCHEMA}.add_jobs(
         (select array_agg(s) from json_populate_recordset(null::${WORKER_SCHEMA}.job_spec, $1::json) s))`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * Deletes every job no worker holds (queued tasks, and the re-runs queued behind running ones); returns how
   * many. A job permanently failed is not counted: graphile-worker keeps those, Quire never makes one.
   */
  async deleteQueuedJobs(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `select count(*)::int as n from ${WORKER_SCHEMA}.complete_jobs(array(
         select id from ${WORKER_SCHEMA}.jobs where locked_at is null and attempts < max_attempts))`,
    );
    return rows[0]?.n ?? 0;
  }

  /** Per task identifier: jobs waiting and jobs a worker holds. */
  async jobCounts(): Promise<{ kind: string; queued: number; running: number }[]> {
    const { rows } = await this.pool.query<{ kind: string; queued: string; running: string }>(
      `select task_identifier as kind,
              count(*) filter (where locked_at is null) as queued,
              count(*) filter (where locked_at is not null) as running
       from ${WORKER_SCHEMA}.jobs
       where locked_at is not null or attempts < max_attempts
       group by task_identifier
       order by task_identifier`,
    );
    return rows.map((r) => ({ kind: r.kind, queued: Number(r.queued), running: Number(r.running) }));
  }

  /** Whether a job of this task identifier waits or runs (one that could still run: not past its attempts). */
  async hasJobs(kind: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ found: boolean }>(
      `select exists (select 1 from ${WORKER_SCHEMA}.jobs
         where task_identifier = $1 and (locked_at is not null or attempts < max_attempts)) as found`,
      [kind],
    );
    return rows[0]?.found ?? false;
  }

  async unlockWorkers(workerIds: readonly string[]): Promise<void> {
    if (workerIds.length === 0) return;
    await this.pool.query(`select ${WORKER_SCHEMA}.force_unlock_workers($1::text[])`, [workerIds]);
  }

  /** Keeps a payload too large for NOTIFY; returns the id the notification carries instead. */
  async storePayload(payload: string): Promise<string> {
    const { rows } = await this.pool.query<{ id: string }>(
      'insert into quire_event_payload (payload) values ($1) returning id',
      [payload],
    );
    return String(rows[0]!.id);
  }

  async readPayload(id: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ payload: string }>(
      'select payload from quire_event_payload where id = $1',
      [id],
    );
    return rows[0]?.payload;
  }

  /** Payloads every listener has read long ago. */
  async dropPayloadsOlderThan(ms: number): Promise<void> {
    await this.pool.query(`delete from quire_event_payload where created_at < now() - $1 * interval '1 millisecond'`, [
      ms,
    ]);
  }

  /**
   * A notification channel: one connection of its own LISTENs (given back when closed; when it breaks, `onError` is
   * told and a new one listens a second later: what was sent in between is lost). Publishing goes through the
   * pool; the caller publishes one notification at a time, so they leave in order.
   */
  async openChannel(
    channel: string,
    onPayload: (payload: string) => void,
    onError: (err: unknown) => void = () => undefined,
  ): Promise<NotificationChannel> {
    let closed = false;
    let listener: pg.PoolClient | undefined;
    const listen = async () => {
      const client = await this.pool.connect();
      client.on('notification', (message) => {
        if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
      });
      client.on('error', (err) => {
        onError(err);
        if (listener !== client) return;
        listener = undefined;
        client.release(err);
        if (!closed) setTimeout(() => void listen().catch(onError), 1_000).unref();
      });
      await client.query(`listen "${channel.replaceAll('"', '""')}"`);
      if (closed) client.release();
      else listener = client;
    };
    await listen();
    return {
      publish: async (payload) => void (await this.pool.query('select pg_notify($1, $2)', [channel, payload])),
      async close() {
        closed = true;
        const client = listener;
        listener = undefined;
        if (!client) return;
        await client.query('unlisten *').catch(() => undefined);
        client.release();
      },
    };
  }
}

export interface NotificationChannel {
  publish(payload: string): Promise<void>;
  close(): Promise<void>;
}
