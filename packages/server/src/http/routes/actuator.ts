import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../deps.js';

export const actuatorRoutes: FastifyPluginAsync<AppDeps> = async () => {};
