import type { Db } from '../database.js';

/** A session as stored: only a hash of its id, so a copy of the database opens no session. */
export interface StoredSession {
  idHash: string;
  userId: string;
  createdDate: string;
  lastAccessDate: string;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(session: StoredSession, t: Db = this.db): Promise<void> {
    await t
      .insertInto('session')
      .values({
        id_hash: session.idHash,
        user_id: session.userId,
        created_date: session.createdDate,
        last_access_date: session.lastAccessDate,
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
      }
    );
  }

  async touch(idHash: string, now: string, t: Db = this.db): Promise<void> {
    await t.updateTable('session').set({ last_access_date: now }).where('id_hash', '=', idHash).execute();
  }

  async delete(idHash: string, t: Db = this.db): Promise<void> {
    await t.deleteFrom('session').where('id_hash', '=', idHash).execute();
  }

  /** Returns how many sessions were removed. */
  async deleteByUser(userId: string, t: Db = this.db): Promise<number> {
    const result = await t.deleteFrom('session').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteIdleSince(lastAccessBefore: string, t: Db = this.db): Promise<number> {
    const result = await t.deleteFrom('session').where('last_access_date', '<', lastAccessBefore).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
