import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BookIdParams, SeriesIdParams } from '@quire/api';
import { PRIORITY } from '../../tasks/definitions.js';
import type { AppDeps } from '../deps.js';

const accepted = { 202: Type.Null({ description: 'Accepted' }) };

/**
 * Deleting files on disk (api.md §3.2-3.3, engine.md §12.4): the request queues DeleteBook / DeleteSeries at
 * the highest priority and answers at once. As in Komga, an unknown id is not an error: its task does nothing.
 */
export const fileDeletionRoutes: FastifyPluginAsync<AppDeps> = async (instance, { tasks }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const admin = app.requireRole('ADMIN');

  app.delete(
    '/api/v1/books/:bookId/file',
    { schema: { params: BookIdParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      await tasks.submit([{ kind: 'DeleteBook', bookId: req.params.bookId }], PRIORITY.HIGHEST);
      return reply.code(202).send(null);
    },
  );

  app.delete(
    '/api/v1/series/:seriesId/file',
    { schema: { params: SeriesIdParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      await tasks.submit([{ kind: 'DeleteSeries', seriesId: req.params.seriesId }], PRIORITY.HIGHEST);
      return reply.code(202).send(null);
    },
  );
};
