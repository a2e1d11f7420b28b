import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

// Dates are ISO-8601 UTC strings with milliseconds: they sort as text and read the same in PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('user')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('email_lower', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('shared_all_libraries', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('age_restriction', 'integer')
    .addColumn('age_restriction_allow_only', 'boolean')
    .addColumn('created_date', types.date, (c) => c.notNull())
    .addColumn('last_modified_date', types.date, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_role')
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('role', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_role_pk', ['user_id', 'role'])
    .execute();

  await db.schema
    .createTable('user_library_sharing')
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('library_id', 'varchar(26)', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_library_sharing_pk', ['user_id', 'library_id'])
    .execute();

  await db.schema
    .createTable('user_sharing_label')
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('allow', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_sharing_label_pk', ['user_id', 'label', 'allow'])
    .execute();

  // Sessions live in the database so that a second instance behind the same proxy sees them.
  await db.schema
    .createTable('session')
    .addColumn('id_hash', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_date', types.date, (c) => c.notNull())
    .addColumn('last_access_date', types.date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('session_user_idx').on('session').column('user_id').execute();

  await db.schema
    .createTable('api_key')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('key_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('comment', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_date', types.date, (c) => c.notNull())
    .addColumn('last_modified_date', types.date, (c) => c.notNull())
    .addUniqueConstraint('api_key_user_comment_uq', ['user_id', 'comment'])
    .execute();

  await db.schema
    .createTable('authentication_activity')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(26)')
    .addColumn('email', 'varchar(320)')
    .addColumn('api_key_id', 'varchar(26)')
    .addColumn('api_key_comment', 'varchar(255)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'text')
    .addColumn('success', 'boolean', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('source', 'varchar(64)')
    .addColumn('date_time', types.date, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_activity_date_idx').on('authentication_activity').column('date_time').execute();
  await db.schema
    .createIndex('auth_activity_user_idx')
    .on('authentication_activity')
    .columns(['user_id', 'date_time'])
    .execute();
  // Rate limiting counts recent failures per ip and per e-mail from this same table.
  await db.schema
    .createIndex('auth_activity_ip_idx')
    .on('authentication_activity')
    .columns(['ip', 'success', 'date_time'])
    .execute();
  await db.schema
    .createIndex('auth_activity_email_idx')
    .on('authentication_activity')
    .columns(['email', 'success', 'date_time'])
    .execute();

  await db.schema
    .createTable('server_settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
