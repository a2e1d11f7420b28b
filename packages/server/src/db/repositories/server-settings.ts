import { atomically, type Db } from '../database.js';
import type { ServerSettingsRepository } from '../../domain/ports.js';

export function createServerSettingsRepository(db: Db): ServerSettingsRepository {
  return {
    async findAll() {
      const rows = await db.selectFrom('server_settings').select(['key', 'value']).execute();
      return new Map(rows.map((r) => [r.key, r.value]));
    },

    async save(entries) {
      const keys = Object.keys(entries);
      if (keys.length === 0) return;
      await atomically(db, async (tx) => {
        for (const key of keys) {
          const value = entries[key];
          if (value === null || value === undefined) {
            await tx.deleteFrom('server_settings').where('key', '=', key).execute();
          } else {
            await tx
              .insertInto('server_settings')
              .values({ key, value })
              .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
              .execute();
          }
        }
      });
    },

    async insertIfAbsent(key, value) {
      await db
        .insertInto('server_settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('server_settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value ?? value;
    },
  };
}
