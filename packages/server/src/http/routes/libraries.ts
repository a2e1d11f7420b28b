import type { libraryOperations, Operations } from '@quire/api/operations';
import { forbidden, notFound } from '../../domain/errors.js';
import type { LibraryRepository } from '../../domain/ports.js';
import type { LibraryLifecycle } from '../../library/library-lifecycle.js';
import type { HandlerFunction, Handlers, OperationIdsOf } from '../operations.js';
import { canSeeLibrary, toLibraryDto } from '../mappers/libraries.js';

export interface LibraryRouteDeps {
  libraries: Pick<LibraryRepository, 'list' | 'find'>;
  lifecycle: Pick<
    LibraryLifecycle,
    'create' | 'update' | 'delete' | 'scan' | 'analyze' | 'refreshMetadata' | 'emptyTrash'
  >;
}

/** /api/v1/libraries (api.md §3.1). Long actions only queue tasks and answer 202. */
export function libraryHandlers({
  libraries,
  lifecycle,
}: LibraryRouteDeps): Handlers<OperationIdsOf<typeof libraryOperations>> {
  const update: HandlerFunction<Operations['updateLibraryById']> = async (req, reply) => {
    await lifecycle.update(req.params.libraryId, req.body);
    return reply.code(204).send(null);
  };
  return {
    getLibraries: async (req) =>
      (await libraries.list()).filter((l) => canSeeLibrary(req.user, l.id)).map((l) => toLibraryDto(l, req.user)),
    getLibraryById: async (req) => {
      const library = await libraries.find(req.params.libraryId);
      if (!library) throw notFound();
      if (!canSeeLibrary(req.user, library.id)) throw forbidden();
      return toLibraryDto(library, req.user);
    },
    addLibrary: async (req) => toLibraryDto(await lifecycle.create(req.body), req.user),
    updateLibraryById: update,
    updateLibraryByIdDeprecated: (req, reply) => update(req, reply),
    deleteLibraryById: async (req, reply) => {
      await lifecycle.delete(req.params.libraryId);
      return reply.code(204).send(null);
    },
    libraryScan: async (req, reply) => {
      await lifecycle.scan(req.params.libraryId, req.query.deep ?? false);
      return reply.code(202).send(null);
    },
    libraryAnalyze: async (req, reply) => {
      await lifecycle.analyze(req.params.libraryId);
      return reply.code(202).send(null);
    },
    libraryRefreshMetadata: async (req, reply) => {
      await lifecycle.refreshMetadata(req.params.libraryId);
      return reply.code(202).send(null);
    },
    libraryEmptyTrash: async (req, reply) => {
      await lifecycle.emptyTrash(req.params.libraryId);
      return reply.code(202).send(null);
    },
  };
}
