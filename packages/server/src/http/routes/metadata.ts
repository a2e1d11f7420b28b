import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  BookIdParams,
  BookMetadataBatchUpdateDto,
  BookMetadataUpdateDto,
  SeriesIdParams,
  SeriesMetadataUpdateDto,
} from '@quire/api';
import { notFound } from '../../domain/errors.js';
import { BOOK_METADATA_PATCH_CAPABILITIES, PRIORITY, type Task } from '../../tasks/definitions.js';
import type { AppDeps } from '../deps.js';

const noContent = { 204: Type.Null({ description: 'No Content' }) };
const accepted = { 202: Type.Null({ description: 'Accepted' }) };

const refreshBook = (b: { id: string; seriesId: string }): Task[] => [
  {
    kind: 'RefreshBookMetadata',
    bookId: b.id,
    seriesId: b.seriesId,
    capabilities: [...BOOK_METADATA_PATCH_CAPABILITIES],
  },
  { kind: 'RefreshBookLocalArtwork', bookId: b.id },
];

/**
 * Metadata edits and refreshes of books and series (api.md §3.2-3.3). Edits answer 204 once stored;
 * refreshes queue tasks (engine.md §8.2) and answer 202. Admins only.
 */
export const metadataRoutes: FastifyPluginAsync<AppDeps> = async (instance, { metadata, libraries, tasks }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const admin = app.requireRole('ADMIN');

  app.patch(
    '/api/v1/books/:bookId/metadata',
    { schema: { params: BookIdParams, body: BookMetadataUpdateDto, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await metadata.editing.updateBook(req.params.bookId, req.body);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/v1/books/metadata',
    { schema: { body: BookMetadataBatchUpdateDto, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await metadata.editing.updateBooks(req.body);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/v1/series/:seriesId/metadata',
    { schema: { params: SeriesIdParams, body: SeriesMetadataUpdateDto, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await metadata.editing.updateSeries(req.params.seriesId, req.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/books/:bookId/metadata/refresh',
    { schema: { params: BookIdParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      const book = await libraries.books.find(req.params.bookId);
      if (!book) throw notFound();
      await tasks.submit(refreshBook(book), PRIORITY.HIGH);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/api/v1/series/:seriesId/metadata/refresh',
    { schema: { params: SeriesIdParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      const series = await libraries.series.find(req.params.seriesId);
      if (!series) throw notFound();
      const books = (await libraries.books.findBySeries(series.id)).filter((b) => !b.deletedDate);
      await tasks.submit(
        [...books.flatMap(refreshBook), { kind: 'RefreshSeriesLocalArtwork', seriesId: series.id }],
        PRIORITY.HIGH,
      );
      // Each book refresh is followed by this one (engine.md §8.3); queued here too so that a series without
      // books still gets its series.json read.
      await tasks.submit([{ kind: 'RefreshSeriesMetadata', seriesId: series.id }], PRIORITY.HIGH - 1);
      return reply.code(202).send(null);
    },
  );
};
