import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.js';

/** `DELETE /api/v1/tasks` (api.md §9.8): cancels every queued task; answers the count as a bare integer. */
export const taskRoutes: FastifyPluginAsync<AppDeps> = async (instance, { tasks }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.delete(
    '/api/v1/tasks',
    { schema: { response: { 200: Type.Integer() } }, onRequest: app.requireRole('ADMIN') },
    async () => tasks.cancelQueued(),
  );
};
