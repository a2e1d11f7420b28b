import type { FileDeletion } from '../../library/file-deletion.js';
import type { Handlers } from '../operations.js';

/**
 * Deleting files on disk (api.md §3.2-3.3, engine.md §12.4): the service queues DeleteBook / DeleteSeries and the
 * request answers at once. As in Komga, an unknown id is not an error: its task does nothing.
 */
export function fileDeletionHandlers({
  deletion,
}: {
  deletion: Pick<FileDeletion, 'queueBookDeletion' | 'queueSeriesDeletion'>;
}): Handlers<'deleteBookFile' | 'deleteSeriesFile'> {
  return {
    deleteBookFile: async (req, reply) => {
      await deletion.queueBookDeletion(req.params.bookId);
      return reply.code(202).send(null);
    },
    deleteSeriesFile: async (req, reply) => {
      await deletion.queueSeriesDeletion(req.params.seriesId);
      return reply.code(202).send(null);
    },
  };
}
