import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  BookIdParams,
  MEDIATYPE_PROGRESSION_JSON,
  R2ProgressionDto,
  ReadProgressUpdateDto,
  SeriesIdParams,
  TachiyomiReadProgressDto,
  TachiyomiReadProgressUpdateDto,
  TachiyomiReadProgressUpdateV2Dto,
  TachiyomiReadProgressV2Dto,
} from '@quire/api';
import type { AppDeps } from '../deps.js';

const noContent = { 204: Type.Null({ description: 'No Content' }) };
const ReadListIdParams = Type.Object({ id: Type.String() });

/**
 * Read progress (api.md §3.2-3.5, engine.md §13): per book, per series, Readium progression and the
 * Mihon/Tachiyomi helpers. Every route is for any authenticated user, on what he may see (403/404 otherwise).
 */
export const readProgressRoutes: FastifyPluginAsync<AppDeps> = async (instance, { reading }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const auth = app.authenticate;

  // Readium clients send progressions with their own media type.
  app.addContentTypeParser(
    MEDIATYPE_PROGRESSION_JSON,
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  app.patch(
    '/api/v1/books/:bookId/read-progress',
    { schema: { params: BookIdParams, body: ReadProgressUpdateDto, response: noContent }, onRequest: auth },
    async (req, reply) => {
      await reading.update(req.user!, req.params.bookId, req.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v1/books/:bookId/read-progress',
    { schema: { params: BookIdParams, response: noContent }, onRequest: auth },
    async (req, reply) => {
      await reading.remove(req.user!, req.params.bookId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/series/:seriesId/read-progress',
    { schema: { params: SeriesIdParams, response: noContent }, onRequest: auth },
    async (req, reply) => {
      await reading.markSeriesRead(req.user!, req.params.seriesId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v1/series/:seriesId/read-progress',
    { schema: { params: SeriesIdParams, response: noContent }, onRequest: auth },
    async (req, reply) => {
      await reading.markSeriesUnread(req.user!, req.params.seriesId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/books/:bookId/progression',
    { schema: { params: BookIdParams, response: { 200: R2ProgressionDto, ...noContent } }, onRequest: auth },
    async (req, reply) => {
      const progression = await reading.progression(req.user!, req.params.bookId);
      if (!progression) return reply.code(204).send(null);
      return reply.type(MEDIATYPE_PROGRESSION_JSON).send(progression);
    },
  );

  app.put(
    '/api/v1/books/:bookId/progression',
    { schema: { params: BookIdParams, body: R2ProgressionDto, response: noContent }, onRequest: auth },
    async (req, reply) => {
      await reading.putProgression(req.user!, req.params.bookId, req.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v2/series/:seriesId/read-progress/tachiyomi',
    { schema: { params: SeriesIdParams, response: { 200: TachiyomiReadProgressV2Dto } }, onRequest: auth },
    (req) => reading.tachiyomiSeries(req.user!, req.params.seriesId),
  );

  app.put(
    '/api/v2/series/:seriesId/read-progress/tachiyomi',
    {
      schema: { params: SeriesIdParams, body: TachiyomiReadProgressUpdateV2Dto, response: noContent },
      onRequest: auth,
    },
    async (req, reply) => {
      await reading.putTachiyomiSeries(req.user!, req.params.seriesId, req.body.lastBookNumberSortRead);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/readlists/:id/read-progress/tachiyomi',
    { schema: { params: ReadListIdParams, response: { 200: TachiyomiReadProgressDto } }, onRequest: auth },
    (req) => reading.tachiyomiReadList(req.user!, req.params.id),
  );

  app.put(
    '/api/v1/readlists/:id/read-progress/tachiyomi',
    {
      schema: { params: ReadListIdParams, body: TachiyomiReadProgressUpdateDto, response: noContent },
      onRequest: auth,
    },
    async (req, reply) => {
      await reading.putTachiyomiReadList(req.user!, req.params.id, req.body.lastBookRead);
      return reply.code(204).send(null);
    },
  );
};
