import type { Db } from '../database.js';
import type { OAuth2RequestRepository } from '../../domain/ports.js';
import type { StoredOAuth2Request } from '../../domain/account.js';

export class KyselyOAuth2RequestRepository implements OAuth2RequestRepository {
  constructor(private readonly db: Db) {}

  async insert(r: StoredOAuth2Request, t: Db = this.db): Promise<void> {
    await t
      .insertInto('oauth2_request')
      .values({
        browser_key_hash: r.browserKeyHash,
        registration_id: r.registrationId,
        state: r.state,
        nonce: r.nonce,
        pkce_verifier: r.pkceVerifier,
        expires_at: r.expiresAt,
      })
      .execute();
  }

  async take(browserKeyHash: string, t: Db = this.db): Promise<StoredOAuth2Request | undefined> {
    const row = await t
      .deleteFrom('oauth2_request')
      .where('browser_key_hash', '=', browserKeyHash)
      .returningAll()
      .executeTakeFirst();
    return (
      row && {
        browserKeyHash: row.browser_key_hash,
        registrationId: row.registration_id,
        state: row.state,
        nonce: row.nonce,
        pkceVerifier: row.pkce_verifier,
        expiresAt: row.expires_at,
      }
    );
  }

  async deleteExpired(now: number, t: Db = this.db): Promise<number> {
    const result = await t.deleteFrom('oauth2_request').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
