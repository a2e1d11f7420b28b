import type { Db } from '../database.js';
import type { AuthenticationActivityRepository } from '../../domain/ports.js';
import type {
  ActivityPageRequest,
  ActivitySortProperty,
  AuthenticationSource,
  StoredActivity,
} from '../../domain/account.js';

const SORT_COLUMNS = {
  dateTime: 'date_time',
  email: 'email',
  success: 'success',
  ip: 'ip',
  error: 'error',
  userId: 'user_id',
  userAgent: 'user_agent',
} as const satisfies Record<ActivitySortProperty, string>;

type ActivityRow = {
  id: string;
  user_id: string | null;
  email: string | null;
  api_key_id: string | null;
  api_key_comment: string | null;
  ip: string | null;
  user_agent: string | null;
  success: number | boolean;
  error: string | null;
  source: string | null;
  date_time: string;
};

export class KyselyAuthenticationActivityRepository implements AuthenticationActivityRepository {
  constructor(private readonly db: Db) {}

  async insert(a: StoredActivity, t: Db = this.db): Promise<void> {
    await t
      .insertInto('authentication_activity')
      .values({
        id: a.id,
        user_id: a.userId,
        email: a.email,
        api_key_id: a.apiKeyId,
        api_key_comment: a.apiKeyComment,
        ip: a.ip,
        user_agent: a.userAgent,
        success: a.success ? 1 : 0,
        error: a.error,
        source: a.source,
        date_time: a.dateTime,
      })
      .execute();
  }

  async page(req: ActivityPageRequest, t: Db = this.db): Promise<{ rows: StoredActivity[]; total: number }> {
    let base = t.selectFrom('authentication_activity');
    if (req.userId !== undefined) base = base.where('user_id', '=', req.userId);
    const countRow = await base.select((eb) => eb.fn.countAll<number | bigint>().as('n')).executeTakeFirstOrThrow();
    let q = base.selectAll();
    for (const s of req.sort) q = q.orderBy(SORT_COLUMNS[s.property], s.descending ? 'desc' : 'asc');
    q = q.orderBy('id', 'desc');
    if (req.limit !== undefined) q = q.limit(req.limit).offset(req.offset ?? 0);
    const rows = await q.execute();
    return { rows: rows.map(toActivity), total: Number(countRow.n) };
  }

  async latest(userId: string, apiKeyId: string | undefined, t: Db = this.db): Promise<StoredActivity | undefined> {
    let q = t.selectFrom('authentication_activity').selectAll().where('user_id', '=', userId);
    if (apiKeyId !== undefined) q = q.where('api_key_id', '=', apiKeyId);
    const row = await q.orderBy('date_time', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row && toActivity(row);
  }

  /**
   * How many guesses (passwords and API keys) failed since `since` for one ip, one (lower-cased) e-mail or both
   * together, and when the latest of them was (null when none). Remember-me tokens cannot be guessed: a browser
   * holding a stale one is no attacker.
   */
  async failures(
    by: { ip?: string; email?: string },
    since: string,
    t: Db = this.db,
  ): Promise<{ count: number; latest: string | null }> {
    let q = t
      .selectFrom('authentication_activity')
      .select((eb) => [eb.fn.countAll<number | bigint>().as('n'), eb.fn.max('date_time').as('latest')])
      .where('success', '=', 0)
      .where('source', 'in', ['Password', 'ApiKey'])
      .where('date_time', '>=', since);
    if (by.ip !== undefined) q = q.where('ip', '=', by.ip);
    if (by.email !== undefined) q = q.where('email', '=', by.email);
    const row = await q.executeTakeFirstOrThrow();
    return { count: Number(row.n), latest: row.latest ?? null };
  }

  /** Whether someone logged in as this (lower-cased) e-mail from this ip since `since`. */
  async succeededFrom(by: { ip: string; email: string }, since: string, t: Db = this.db): Promise<boolean> {
    const row = await t
      .selectFrom('authentication_activity')
      .select('id')
      .where('ip', '=', by.ip)
      .where('success', '=', 1)
      .where('date_time', '>=', since)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', by.email))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteBefore(dateTime: string, t: Db = this.db): Promise<number> {
    const result = await t.deleteFrom('authentication_activity').where('date_time', '<', dateTime).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteByUser(userId: string, t: Db = this.db): Promise<void> {
    await t.deleteFrom('authentication_activity').where('user_id', '=', userId).execute();
  }
}

function toActivity(r: ActivityRow): StoredActivity {
  return {
    id: r.id,
    userId: r.user_id,
    email: r.email,
    apiKeyId: r.api_key_id,
    apiKeyComment: r.api_key_comment,
    ip: r.ip,
    userAgent: r.user_agent,
    success: Boolean(r.success),
    error: r.error,
    source: r.source as AuthenticationSource | null,
    dateTime: r.date_time,
  };
}
