import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/*
 * OAuth2 logins under way (api.md §2.7): state, nonce and PKCE verifier between the redirect to the provider and its
 * callback, in the database so that any instance can finish the flow. The key is the SHA-256 of the browser's flow
 * cookie; rows live 10 minutes (epoch ms in expires_at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('oauth2_request')
    .addColumn('browser_key_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('registration_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('pkce_verifier', 'text', (c) => c.notNull())
    .addColumn('expires_at', types.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth2_request_expires_idx').on('oauth2_request').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
