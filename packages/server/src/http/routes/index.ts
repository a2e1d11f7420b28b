import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { authPlugin } from '../plugins/auth.js';
import { claimRoutes } from './claim.js';
import { userRoutes } from './users.js';
import { settingsRoutes } from './settings.js';
import { actuatorRoutes } from './actuator.js';
import { sseRoutes } from './sse.js';
import { webRoutes } from './web.js';

export interface RouteOptions {
  contextPath: string;
}

/** Every route plugin, in one list. Each receives the dependencies it needs from `deps`. */
export async function registerRoutes(app: FastifyInstance, deps: AppDeps, opts: RouteOptions): Promise<void> {
  await app.register(authPlugin, deps);
  await app.register(claimRoutes, deps);
  await app.register(userRoutes, deps);
  await app.register(settingsRoutes, deps);
  await app.register(actuatorRoutes, deps);
  await app.register(sseRoutes, deps);
  // Last: JSON 404s for unknown /api paths and the web client with its history-mode fallback.
  await app.register(webRoutes, { ...deps, contextPath: opts.contextPath });
}
