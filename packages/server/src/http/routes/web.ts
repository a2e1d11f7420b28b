import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../deps.js';

export const webRoutes: FastifyPluginAsync<AppDeps & { contextPath: string }> = async () => {};
