import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import type { SettingsStore } from '../domain/settings.js';
import type { Accounts } from '../accounts/index.js';

/** What route plugins receive from the composition root (main.ts / app.ts). */
export interface AppDeps {
  config: Config;
  db: Db;
  events: EventBus;
  settings: SettingsStore;
  accounts: Accounts;
  logger: FastifyBaseLogger;
  /** Stops the process gracefully (POST /actuator/shutdown). */
  shutdown(): void;
}
