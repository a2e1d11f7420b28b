import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../deps.js';

export const settingsRoutes: FastifyPluginAsync<AppDeps> = async () => {};
