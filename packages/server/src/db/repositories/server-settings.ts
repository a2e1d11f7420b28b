import type { Db } from '../database.js';

/** The `server_settings` key/value table (engine.md §1.3). Values are strings; a missing row means "default". */
export interface ServerSettingsRepository {
  findAll(): Promise<Map<string, string | null>>;
  /** Upserts every entry in one transaction; a `null` value deletes the row. */
  save(entries: Record<string, string | null>): Promise<void>;
  /** Inserts the value unless the key exists, then returns the stored value (first writer wins). */
  insertIfAbsent(key: string, value: string): Promise<string>;
}

export function createServerSettingsRepository(db: Db): ServerSettingsRepository {
  return {
    async findAll() {
      const rows = await db.selectFrom('server_settings').select(['key', 'value']).execute();
      return new Map(rows.map((r) => [r.key, r.value]));
    },

    async save(entries) {
      const keys = Object.keys(entries);
      if (keys.length === 0) return;
      await db.transaction().execute(async (tx) => {
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
