import { createHmac, randomBytes } from 'node:crypto';
import type { RememberMeTokenRepository } from '../domain/ports.js';
import type { StoredRememberMeToken } from '../domain/account.js';

/**
 * Remember-me tokens: 32 random bytes (base64url) in the `komga-remember-me` cookie, stored as an HMAC-SHA256
 * keyed with the server's remember-me key. The cookie says nothing about its user; a token ends when it
 * expires, when its browser logs out, when its user's password changes, and for everyone when the key is
 * renewed (no stored hash matches any more). Komga's cookie (Spring's token-based remember-me) carries the
 * e-mail in clear and outlives a logout.
 */
export class RememberMeTokens {
  constructor(private readonly d: { tokens: RememberMeTokenRepository; now: () => number }) {}

  /** A new token for the user, valid `durationMs`. */
  async issue(userId: string, durationMs: number, key: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.d.now();
    await this.d.tokens.insert({
      tokenHash: hashToken(token, key),
      userId,
      createdDate: new Date(now).toISOString(),
      expiresDate: new Date(now + durationMs).toISOString(),
    });
    return token;
  }

  /** The stored token, or undefined when unknown (never issued, logged out, or issued under another key). */
  find(token: string, key: string): Promise<StoredRememberMeToken | undefined> {
    return token ? this.d.tokens.find(hashToken(token, key)) : Promise.resolve(undefined);
  }

  isExpired(token: StoredRememberMeToken): boolean {
    return Date.parse(token.expiresDate) <= this.d.now();
  }

  async revoke(token: string, key: string): Promise<void> {
    if (token) await this.d.tokens.delete(hashToken(token, key));
  }

  revokeAll(userId: string): Promise<void> {
    return this.d.tokens.deleteByUser(userId);
  }

  purgeExpired(): Promise<number> {
    return this.d.tokens.deleteExpiredBefore(new Date(this.d.now()).toISOString());
  }
}

const hashToken = (token: string, key: string) => createHmac('sha256', key).update(token, 'utf8').digest('hex');
