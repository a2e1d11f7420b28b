import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import type { SettingsStore } from '../domain/settings.js';

export interface AccountsDeps {
  db: Db;
  events: EventBus;
  settings: SettingsStore;
  config: Config;
}

/** Users, sessions, API keys and authentication activity. */
export type Accounts = ReturnType<typeof createAccounts>;

export function createAccounts(_deps: AccountsDeps) {
  return {};
}
