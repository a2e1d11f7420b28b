import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../deps.js';

export const authPlugin: FastifyPluginAsync<AppDeps> = fp(async () => {});
