import type { Db } from '../database.js';
import type { SessionRepository } from '../../domain/ports.js';
import type { StoredSession, SessionCutoffs } from '../../domain/account.js';

export class KyselySessionRepository implements SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(session: StoredSession, t: Db = this.db): Promise<void> {
    await t
      .insertInto('session')
      .values({
        id_hash: session.idHash,
        user_id: session.userId,
        created_date: session.createdDate,
        last_access_date: session.lastAccessDate,
        confirmed: session.confirmed ? 1 : 0,
        ip: session.ip,
        user_agent: session.userAgent,
      })
      .execute();
  }

  async find(idHash: string, t: Db = this.db): Promise<StoredSession | undefined> {
    const row = await t.selectFrom('session').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
    return (
      row && {
        idHash: row.id_hash,
        userId: row.user_id,
        createdDate: row.created_date,
        lastAccessDate: row.last_access_date,
        confirmed: Boolean(row.confirmed),
        ip: row.ip,
        userAgent: row.user_agent,
      }
    );
  }

  /** Records a use; the first one confirms the session. */
  async touch(idHash: string, at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    await t.updateTable('session').set({ last_access_date: now, confirmed: 1 }).where('id_hash', '=', idHash).execute();
  }

  async delete(idHash: string, t: Db = this.db): Promise<void> {
    await t.deleteFrom('session').where('id_hash', '=', idHash).execute();
  }

  /** Every session of the user, except `keepIdHash`'s when given. Returns how many were removed. */
  async deleteByUser(userId: string, keepIdHash?: string, t: Db = this.db): Promise<number> {
    let q = t.deleteFrom('session').where('user_id', '=', userId);
    if (keepIdHash !== undefined) q = q.where('id_hash', '!=', keepIdHash);
    const result = await q.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The user's never-presented sessions opened from this client (same address and user agent). */
  async deleteUnconfirmedOf(
    userId: string,
    client: { ip: string | null; userAgent: string | null },
    t: Db = this.db,
  ): Promise<void> {
    await t
      .deleteFrom('session')
      .where('user_id', '=', userId)
      .where('confirmed', '=', 0)
      .where((eb) => (client.ip === null ? eb('ip', 'is', null) : eb('ip', '=', client.ip)))
      .where((eb) =>
        client.userAgent === null ? eb('user_agent', 'is', null) : eb('user_agent', '=', client.userAgent),
      )
      .execute();
  }

  /** Removes the sessions that are over; only the user's when `userId` is given. Returns how many. */
  async deleteExpired(cutoffs: SessionCutoffs, userId?: string, t: Db = this.db): Promise<number> {
    let q = t
      .deleteFrom('session')
      .where((eb) =>
        eb.or([
          eb('last_access_date', '<', cutoffs.idleBefore),
          eb.and([eb('confirmed', '=', 0), eb('last_access_date', '<', cutoffs.unconfirmedBefore)]),
          eb('created_date', '<', cutoffs.createdBefore),
        ]),
      );
    if (userId !== undefined) q = q.where('user_id', '=', userId);
    const result = await q.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
