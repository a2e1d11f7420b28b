import type { Db } from '../database.js';
import type { RememberMeTokenRepository } from '../../domain/ports.js';
import type { StoredRememberMeToken } from '../../domain/account.js';

export class KyselyRememberMeTokenRepository implements RememberMeTokenRepository {
  constructor(private readonly db: Db) {}

  async insert(token: StoredRememberMeToken, t: Db = this.db): Promise<void> {
    await t
      .insertInto('remember_me_token')
      .values({
        token_hash: token.tokenHash,
        user_id: token.userId,
        created_date: token.createdDate,
        expires_date: token.expiresDate,
      })
      .execute();
  }

  async find(tokenHash: string, t: Db = this.db): Promise<StoredRememberMeToken | undefined> {
    const row = await t
      .selectFrom('remember_me_token')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      row && {
        tokenHash: row.token_hash,
        userId: row.user_id,
        createdDate: row.created_date,
        expiresDate: row.expires_date,
      }
    );
  }

  async delete(tokenHash: string, t: Db = this.db): Promise<void> {
    await t.deleteFrom('remember_me_token').where('token_hash', '=', tokenHash).execute();
  }

  async deleteByUser(userId: string, t: Db = this.db): Promise<void> {
    await t.deleteFrom('remember_me_token').where('user_id', '=', userId).execute();
  }

  /** Returns how many were removed. */
  async deleteExpiredBefore(date: string, t: Db = this.db): Promise<number> {
    const result = await t.deleteFrom('remember_me_token').where('expires_date', '<', date).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
