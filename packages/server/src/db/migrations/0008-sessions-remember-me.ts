import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * Sessions learn which client opened them and whether that client ever came back with the id (a client that
 * never does, such as a script sending HTTP Basic on every call, keeps one row instead of one per request);
 * remember-me becomes a random token stored hashed, so that logging out and changing one's password end it
 * and the cookie no longer carries the e-mail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  // Sessions opened before this migration were all presented back as far as anyone knows.
  await db.schema
    .alterTable('session')
    .addColumn('confirmed', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema.alterTable('session').addColumn('ip', 'varchar(64)').execute();
  await db.schema.alterTable('session').addColumn('user_agent', 'text').execute();
  await db.schema.createIndex('session_last_access_idx').on('session').column('last_access_date').execute();
  await db.schema.createIndex('session_created_idx').on('session').column('created_date').execute();

  await db.schema
    .createTable('remember_me_token')
    .addColumn('token_hash', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_date', types.date, (c) => c.notNull())
    .addColumn('expires_date', types.date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('remember_me_token_user_idx').on('remember_me_token').column('user_id').execute();
  await db.schema.createIndex('remember_me_token_expires_idx').on('remember_me_token').column('expires_date').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
