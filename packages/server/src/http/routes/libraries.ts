import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { LibraryCreationDto, LibraryDto, LibraryIdParams, LibraryScanQuery, LibraryUpdateDto } from '@quire/api';
import { forbidden, notFound } from '../../domain/errors.js';
import { BOOK_METADATA_PATCH_CAPABILITIES, PRIORITY, type Task } from '../../tasks/definitions.js';
import type { AppDeps } from '../deps.js';
import { canSeeLibrary, toLibraryDto } from '../mappers/libraries.js';

const noContent = { 204: Type.Null({ description: 'No Content' }) };
const accepted = { 202: Type.Null({ description: 'Accepted' }) };

/** /api/v1/libraries (api.md §3.1). Long actions only queue tasks and answer 202. */
export const libraryRoutes: FastifyPluginAsync<AppDeps> = async (instance, { libraries, tasks }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const admin = app.requireRole('ADMIN');
  const auth = app.authenticate;

  const existing = async (libraryId: string) => {
    const library = await libraries.repository.find(libraryId);
    if (!library) throw notFound();
    return library;
  };

  app.get(
    '/api/v1/libraries',
    { schema: { response: { 200: Type.Array(LibraryDto) } }, onRequest: auth },
    async (req) =>
      (await libraries.repository.list())
        .filter((l) => canSeeLibrary(req.user!, l.id))
        .map((l) => toLibraryDto(l, req.user!)),
  );

  app.get(
    '/api/v1/libraries/:libraryId',
    { schema: { params: LibraryIdParams, response: { 200: LibraryDto } }, onRequest: auth },
    async (req) => {
      const library = await existing(req.params.libraryId);
      if (!canSeeLibrary(req.user!, library.id)) throw forbidden();
      return toLibraryDto(library, req.user!);
    },
  );

  app.post(
    '/api/v1/libraries',
    { schema: { body: LibraryCreationDto, response: { 200: LibraryDto } }, onRequest: admin },
    async (req) => toLibraryDto(await libraries.lifecycle.create(req.body), req.user!),
  );

  const update = async (req: { params: { libraryId: string }; body: LibraryUpdateDto }) => {
    await libraries.lifecycle.update(req.params.libraryId, req.body);
  };
  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/api/v1/libraries/:libraryId',
      schema: { params: LibraryIdParams, body: LibraryUpdateDto, response: noContent },
      onRequest: admin,
      handler: async (req, reply) => {
        await update(req);
        return reply.code(204).send(null);
      },
    });
  }

  app.delete(
    '/api/v1/libraries/:libraryId',
    { schema: { params: LibraryIdParams, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await libraries.lifecycle.delete(req.params.libraryId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/libraries/:libraryId/scan',
    { schema: { params: LibraryIdParams, querystring: LibraryScanQuery, response: accepted }, onRequest: admin },
    async (req, reply) => {
      const library = await existing(req.params.libraryId);
      await tasks.submit(
        [{ kind: 'ScanLibrary', libraryId: library.id, deep: req.query.deep ?? false }],
        PRIORITY.HIGHEST,
      );
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/api/v1/libraries/:libraryId/analyze',
    { schema: { params: LibraryIdParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      const library = await existing(req.params.libraryId);
      const books = await libraries.books.findByLibrary(library.id);
      await tasks.submit(
        books.map((b): Task => ({ kind: 'AnalyzeBook', bookId: b.id, seriesId: b.seriesId })),
        PRIORITY.HIGH,
      );
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/api/v1/libraries/:libraryId/metadata/refresh',
    { schema: { params: LibraryIdParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      const library = await existing(req.params.libraryId);
      const [books, series] = await Promise.all([
        libraries.books.findByLibrary(library.id),
        libraries.series.findByLibrary(library.id),
      ]);
      const work: Task[] = [];
      for (const b of books) {
        work.push({
          kind: 'RefreshBookMetadata',
          bookId: b.id,
          seriesId: b.seriesId,
          capabilities: [...BOOK_METADATA_PATCH_CAPABILITIES],
        });
        work.push({ kind: 'RefreshBookLocalArtwork', bookId: b.id });
      }
      for (const s of series) work.push({ kind: 'RefreshSeriesLocalArtwork', seriesId: s.id });
      await tasks.submit(work, PRIORITY.HIGH);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/api/v1/libraries/:libraryId/empty-trash',
    { schema: { params: LibraryIdParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      const library = await existing(req.params.libraryId);
      await tasks.submit([{ kind: 'EmptyTrash', libraryId: library.id }], PRIORITY.HIGH);
      return reply.code(202).send(null);
    },
  );
};
