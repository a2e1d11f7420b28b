import type { Kysely } from 'kysely';

/** Opaque key/value settings the web clients keep on the server (api.md §9.5). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_setting_global')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('allow_unauthorized', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable('client_setting_user')
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_setting_user_pk', ['user_id', 'key'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
