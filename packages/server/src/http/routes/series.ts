import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SeriesDto, SeriesIdParams } from '@quire/api';
import { notFound } from '../../domain/errors.js';
import { isAdmin } from '../../domain/user.js';
import { contentDisposition, streamStoredZip } from '../../library/book-files.js';
import { PRIORITY } from '../../tasks/definitions.js';
import type { AppDeps } from '../deps.js';
import { toSeriesDto } from '../mappers/series.js';
import { checkAccess } from './books.js';

const accepted = { 202: Type.Null({ description: 'Accepted' }) };

/** Series (api.md §3.2): details, ZIP download of its books, analysis. */
export const seriesRoutes: FastifyPluginAsync<AppDeps> = async (instance, { books, tasks }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/api/v1/series/:seriesId',
    { schema: { params: SeriesIdParams, response: { 200: SeriesDto } }, onRequest: app.authenticate },
    async (req, reply) => {
      const series = await books.series.findById(req.params.seriesId, req.user!.id);
      // 404 with an empty body, as Komga's handler answers (api.md §1.6).
      if (!series) return (reply as FastifyReply).code(404).send();
      checkAccess(req.user!, series.access);
      return toSeriesDto(series, isAdmin(req.user!));
    },
  );

  // A stored ZIP (Zip64) of the book files, streamed: no Content-Length, no ETag (api.md §1.8).
  app.get(
    '/api/v1/series/:seriesId/file',
    { schema: { params: SeriesIdParams }, onRequest: app.requireRole('FILE_DOWNLOAD') },
    async (req, reply) => {
      const series = await books.series.findAccess(req.params.seriesId);
      if (!series) throw notFound();
      checkAccess(req.user!, series);
      const files = await books.series.books(req.params.seriesId);
      return reply
        .type('application/zip')
        .header('Content-Disposition', contentDisposition('attachment', `${series.title}.zip`))
        .send(streamStoredZip(files.map((f) => ({ url: f.url }))));
    },
  );

  app.post(
    '/api/v1/series/:seriesId/analyze',
    { schema: { params: SeriesIdParams, response: accepted }, onRequest: app.requireRole('ADMIN') },
    async (req, reply) => {
      if (!(await books.series.findAccess(req.params.seriesId))) throw notFound();
      const list = await books.series.books(req.params.seriesId);
      await tasks.submit(
        list.map((b) => ({ kind: 'AnalyzeBook' as const, bookId: b.id, seriesId: b.seriesId })),
        PRIORITY.HIGH,
      );
      return reply.code(202).send(null);
    },
  );
};
