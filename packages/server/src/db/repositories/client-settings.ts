import { atomically, type Db } from '../database.js';
import type { ClientSettingsRepository } from '../../domain/ports.js';
import type { StoredClientSetting } from '../../domain/settings.js';

/** Client settings (api.md §9.5): global ones, and per-user ones. */
export class KyselyClientSettingsRepository implements ClientSettingsRepository {
  constructor(private readonly db: Db) {}

  async global(onlyUnauthorized: boolean): Promise<Map<string, StoredClientSetting>> {
    let q = this.db.selectFrom('client_setting_global').selectAll();
    if (onlyUnauthorized) q = q.where('allow_unauthorized', '=', 1);
    const rows = await q.orderBy('key').execute();
    return new Map(rows.map((r) => [r.key, { value: r.value, allowUnauthorized: Boolean(r.allow_unauthorized) }]));
  }

  /** Upsert; on an existing key only the value changes (Komga keeps the first allowUnauthorized). */
  async saveGlobal(settings: Record<string, { value: string; allowUnauthorized: boolean }>): Promise<void> {
    await atomically(this.db, async (t) => {
      for (const [key, s] of Object.entries(settings)) {
        await t
          .insertInto('client_setting_global')
          .values({ key, value: s.value, allow_unauthorized: s.allowUnauthorized ? 1 : 0 })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: s.value }))
          .execute();
      }
    });
  }

  async deleteGlobal(keys: readonly string[]): Promise<void> {
    if (keys.length) await this.db.deleteFrom('client_setting_global').where('key', 'in', keys).execute();
  }

  async user(userId: string): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('client_setting_user')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('key')
      .execute();
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  async saveUser(userId: string, settings: Record<string, { value: string }>): Promise<void> {
    await atomically(this.db, async (t) => {
      for (const [key, s] of Object.entries(settings)) {
        await t
          .insertInto('client_setting_user')
          .values({ user_id: userId, key, value: s.value })
          .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value: s.value }))
          .execute();
      }
    });
  }

  async deleteUser(userId: string, keys: readonly string[]): Promise<void> {
    if (keys.length) {
      await this.db.deleteFrom('client_setting_user').where('user_id', '=', userId).where('key', 'in', keys).execute();
    }
  }
}
