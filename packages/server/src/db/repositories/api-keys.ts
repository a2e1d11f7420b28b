import type { Db } from '../database.js';
import type { ApiKeyRepository } from '../../domain/ports.js';
import type { StoredApiKey } from '../../domain/account.js';

type ApiKeyRow = {
  id: string;
  user_id: string;
  key_hash: string;
  comment: string;
  created_date: string;
  last_modified_date: string;
};

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly db: Db) {}

  async insert(key: StoredApiKey, t: Db = this.db): Promise<void> {
    await t
      .insertInto('api_key')
      .values({
        id: key.id,
        user_id: key.userId,
        key_hash: key.keyHash,
        comment: key.comment,
        created_date: key.createdDate,
        last_modified_date: key.lastModifiedDate,
      })
      .execute();
  }

  async findByHash(keyHash: string, t: Db = this.db): Promise<StoredApiKey | undefined> {
    const row = await t.selectFrom('api_key').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row && toApiKey(row);
  }

  async listByUser(userId: string, t: Db = this.db): Promise<StoredApiKey[]> {
    const rows = await t
      .selectFrom('api_key')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_date')
      .orderBy('id')
      .execute();
    return rows.map(toApiKey);
  }

  async existsComment(userId: string, comment: string, t: Db = this.db): Promise<boolean> {
    const row = await t
      .selectFrom('api_key')
      .select('id')
      .where('user_id', '=', userId)
      .where('comment', '=', comment)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes the key only if the user owns it; returns whether a key was deleted. */
  async deleteOwned(id: string, userId: string, t: Db = this.db): Promise<boolean> {
    const result = await t.deleteFrom('api_key').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function toApiKey(row: ApiKeyRow): StoredApiKey {
  return {
    id: row.id,
    userId: row.user_id,
    keyHash: row.key_hash,
    comment: row.comment,
    createdDate: row.created_date,
    lastModifiedDate: row.last_modified_date,
  };
}
