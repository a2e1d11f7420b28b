import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import type { SettingsStore } from '../domain/settings.js';
import type { Accounts } from '../accounts/index.js';
import type { TaskQueue } from '../tasks/queue.js';

/** What route plugins receive from the composition root (main.ts / app.ts). */
export interface AppDeps {
  config: Config;
  db: Db;
  events: EventBus;
  settings: SettingsStore;
  accounts: Accounts;
  tasks: TaskQueue;
  /** The task workers of this process; resized live when the task pool size setting changes. */
  taskPool: { resize(size: number): void };
  logger: FastifyBaseLogger;
  /** Stops the process gracefully (POST /actuator/shutdown). */
  shutdown(): void;
}
