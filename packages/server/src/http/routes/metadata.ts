import type { MetadataEditing } from '../../metadata/metadata-editing.js';
import type { MetadataRefresh } from '../../metadata/metadata-refresh.js';
import type { Handlers } from '../operations.js';

type MetadataOperation =
  | 'updateBookMetadata'
  | 'updateBookMetadataByBatch'
  | 'updateSeriesMetadata'
  | 'bookRefreshMetadata'
  | 'seriesRefreshMetadata';

/**
 * Metadata edits and refreshes of books and series (api.md §3.2-3.3). Edits answer 204 once stored; refreshes
 * are queued by the refresh service (engine.md §8.2) and answer 202. Admins only.
 */
export function metadataHandlers({
  editing,
  refresh,
}: {
  editing: Pick<MetadataEditing, 'updateBook' | 'updateBooks' | 'updateSeries'>;
  refresh: Pick<MetadataRefresh, 'queueBookRefresh' | 'queueSeriesRefresh'>;
}): Handlers<MetadataOperation> {
  return {
    updateBookMetadata: async (req, reply) => {
      await editing.updateBook(req.params.bookId, req.body);
      return reply.code(204).send(null);
    },
    updateBookMetadataByBatch: async (req, reply) => {
      await editing.updateBooks(req.body);
      return reply.code(204).send(null);
    },
    updateSeriesMetadata: async (req, reply) => {
      await editing.updateSeries(req.params.seriesId, req.body);
      return reply.code(204).send(null);
    },
    bookRefreshMetadata: async (req, reply) => {
      await refresh.queueBookRefresh(req.params.bookId);
      return reply.code(202).send(null);
    },
    seriesRefreshMetadata: async (req, reply) => {
      await refresh.queueSeriesRefresh(req.params.seriesId);
      return reply.code(202).send(null);
    },
  };
}
