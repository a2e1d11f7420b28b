import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { createEventBus } from './events/bus.js';
import { createLogger } from './logging.js';
import { createSettingsStore } from './settings/server-settings.js';
import { createAccounts } from './accounts/index.js';
import { registerErrorHandling } from './http/plugins/errors.js';
import { registerRoutes } from './http/routes/index.js';
import type { AppDeps } from './http/deps.js';

export interface QuireApp {
  http: FastifyInstance;
  deps: AppDeps;
  /** Effective port and context path (the database settings win over the environment). */
  port: number;
  contextPath: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The composition root shared by main.ts and the tests: config → db → services → HTTP. */
export async function createApp(config: Config, opts: { onShutdown?: () => void } = {}): Promise<QuireApp> {
  mkdirSync(config.dataDir, { recursive: true });
  mkdirSync(join(config.dataDir, 'thumbnails'), { recursive: true });
  const logger = await createLogger(config);
  const database = await openDatabase(join(config.dataDir, 'database.sqlite'));
  const db = database.db;
  const events = createEventBus();
  const settings = createSettingsStore(db);
  const stored = await settings.get();
  const contextPath = stored.serverContextPath ?? config.contextPath;
  const port = config.port === 0 ? 0 : (stored.serverPort ?? config.port);

  const http: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    disableRequestLogging: config.logLevel !== 'debug',
    trustProxy: true,
    bodyLimit: 10 * 1024 * 1024,
    // Serve everything under the context path by stripping it before routing (api.md §1.1).
    rewriteUrl: (req) => {
      const url = req.url ?? '/';
      if (!contextPath) return url;
      if (url === contextPath || url.startsWith(`${contextPath}/`) || url.startsWith(`${contextPath}?`)) {
        return url.slice(contextPath.length) || '/';
      }
      return '/__outside_context_path__';
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true } },
  });

  let shuttingDown = false;
  const deps: AppDeps = {
    config,
    db,
    events,
    settings,
    accounts: createAccounts({ db, events, settings, config }),
    logger,
    shutdown: () => {
      if (shuttingDown) return;
      shuttingDown = true;
      setTimeout(() => opts.onShutdown?.(), 50);
    },
  };

  await http.register(cookie);
  registerErrorHandling(http);
  await registerRoutes(http, deps, { contextPath });

  http.addHook('onClose', async () => {
    await database.close();
  });

  return {
    http,
    deps,
    port,
    contextPath,
    async listen() {
      const address = await http.listen({ port, host: config.host });
      return address;
    },
    close: () => http.close(),
  };
}
