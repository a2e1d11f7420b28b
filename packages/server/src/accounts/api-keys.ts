import { createHash, randomUUID } from 'node:crypto';
import { newId } from '../domain/ids.js';
import { badRequest, invalid, notFound } from '../domain/errors.js';
import type { ApiKeyRepository } from '../domain/ports.js';
import type { StoredApiKey } from '../domain/account.js';

export const hashApiKey = (key: string) => createHash('sha512').update(key, 'utf8').digest('hex');

/** Per-user API keys (api.md §2.5): shown once, stored as SHA-512. */
export class ApiKeys {
  constructor(private readonly d: { apiKeys: ApiKeyRepository; now: () => number }) {}

  list(userId: string): Promise<StoredApiKey[]> {
    return this.d.apiKeys.listByUser(userId);
  }

  /** Returns the stored key and the plain key, which is never seen again. */
  async create(userId: string, comment: string): Promise<{ apiKey: StoredApiKey; plainKey: string }> {
    const trimmed = comment.trim();
    if (!trimmed) throw invalid([{ fieldName: 'comment', message: 'must not be blank' }]);
    if (await this.d.apiKeys.existsComment(userId, trimmed)) throw badRequest('ERR_1034');
    const plainKey = randomUUID().replace(/-/g, '');
    const now = this.d.now();
    const date = new Date(now).toISOString();
    const apiKey: StoredApiKey = {
      id: newId(now),
      userId,
      keyHash: hashApiKey(plainKey),
      comment: trimmed,
      createdDate: date,
      lastModifiedDate: date,
    };
    try {
      await this.d.apiKeys.insert(apiKey);
    } catch (err) {
      // Another request added the same comment between the check and the insert.
      if (await this.d.apiKeys.existsComment(userId, trimmed)) throw badRequest('ERR_1034');
      throw err;
    }
    return { apiKey, plainKey };
  }

  async delete(userId: string, keyId: string): Promise<void> {
    if (!(await this.d.apiKeys.deleteOwned(keyId, userId))) throw notFound();
  }

  findByKey(plainKey: string): Promise<StoredApiKey | undefined> {
    return this.d.apiKeys.findByHash(hashApiKey(plainKey));
  }
}
