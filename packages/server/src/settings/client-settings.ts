import type { ClientSettingsRepository } from '../domain/ports.js';
import type { StoredClientSetting } from '../domain/settings.js';

/**
 * Client settings (api.md §9.5): an opaque key/value store the web clients keep on the server, global and per
 * user. Anonymous callers read only the global entries marked allowUnauthorized; who may write global entries
 * (admins) is the operation table's `access`.
 */
export class ClientSettings {
  constructor(private readonly repository: ClientSettingsRepository) {}

  /** The global entries `anonymous` callers may read, or all of them. */
  async global(caller: 'anonymous' | 'authenticated'): Promise<Record<string, StoredClientSetting>> {
    return Object.fromEntries(await this.repository.global(caller === 'anonymous'));
  }

  saveGlobal(settings: Record<string, StoredClientSetting>): Promise<void> {
    return this.repository.saveGlobal(settings);
  }

  deleteGlobal(keys: readonly string[]): Promise<void> {
    return this.repository.deleteGlobal(keys);
  }

  async ofUser(userId: string): Promise<Record<string, { value: string }>> {
    const settings = await this.repository.user(userId);
    return Object.fromEntries([...settings].map(([key, value]) => [key, { value }]));
  }

  saveForUser(userId: string, settings: Record<string, { value: string }>): Promise<void> {
    return this.repository.saveUser(userId, settings);
  }

  deleteForUser(userId: string, keys: readonly string[]): Promise<void> {
    return this.repository.deleteUser(userId, keys);
  }
}
