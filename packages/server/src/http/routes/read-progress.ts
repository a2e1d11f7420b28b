import { MEDIATYPE_PROGRESSION_JSON } from '@quire/api';
import type { Handlers } from '../operations.js';
import type { ReadProgressService } from '../../reading/read-progress.js';

type ReadProgressOperation =
  | 'markBookReadProgress'
  | 'deleteBookReadProgress'
  | 'markSeriesAsRead'
  | 'markSeriesAsUnread'
  | 'getBookProgression'
  | 'updateBookProgression'
  | 'getMihonReadProgressBySeriesId'
  | 'updateMihonReadProgressBySeriesId'
  | 'getMihonReadProgressByReadListId'
  | 'updateMihonReadProgressByReadListId';

/**
 * Read progress (api.md §3.2-3.5, engine.md §13): per book, per series, Readium progression and the
 * Mihon/Tachiyomi helpers. Every operation is for any authenticated user, on what he may see (403/404 otherwise).
 */
export function readProgressHandlers({ reading }: { reading: ReadProgressService }): Handlers<ReadProgressOperation> {
  return {
    markBookReadProgress: async (req, reply) => {
      await reading.update(req.user, req.params.bookId, req.body);
      return reply.code(204).send(null);
    },
    deleteBookReadProgress: async (req, reply) => {
      await reading.remove(req.user, req.params.bookId);
      return reply.code(204).send(null);
    },
    markSeriesAsRead: async (req, reply) => {
      await reading.markSeriesRead(req.user, req.params.seriesId);
      return reply.code(204).send(null);
    },
    markSeriesAsUnread: async (req, reply) => {
      await reading.markSeriesUnread(req.user, req.params.seriesId);
      return reply.code(204).send(null);
    },
    getBookProgression: async (req, reply) => {
      const progression = await reading.progression(req.user, req.params.bookId);
      if (!progression) return reply.code(204).send(null);
      return reply.type(MEDIATYPE_PROGRESSION_JSON).send(progression);
    },
    updateBookProgression: async (req, reply) => {
      await reading.putProgression(req.user, req.params.bookId, req.body);
      return reply.code(204).send(null);
    },
    getMihonReadProgressBySeriesId: (req) => reading.tachiyomiSeries(req.user, req.params.seriesId),
    updateMihonReadProgressBySeriesId: async (req, reply) => {
      await reading.putTachiyomiSeries(req.user, req.params.seriesId, req.body.lastBookNumberSortRead);
      return reply.code(204).send(null);
    },
    getMihonReadProgressByReadListId: (req) => reading.tachiyomiReadList(req.user, req.params.id),
    updateMihonReadProgressByReadListId: async (req, reply) => {
      await reading.putTachiyomiReadList(req.user, req.params.id, req.body.lastBookRead);
      return reply.code(204).send(null);
    },
  };
}
