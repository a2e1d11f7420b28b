import type { collectionSeriesOperations } from '@quire/api/operations';
import { listContext } from '../../db/queries/conditions.js';
import type { Browse } from '../../db/queries/browse.js';
import { notFound } from '../../domain/errors.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { pageRequest, seriesFilterCondition, seriesPage, type SeriesViews } from '../listing.js';

export interface CollectionSeriesRouteDeps extends SeriesViews {
  browse: Pick<Browse, 'books' | 'series'>;
}

/**
 * The series of a collection (api.md §3.4): the deprecated series filters, in collection order when the collection
 * is ordered, else by sort title (any `sort` parameter is ignored). A collection the caller cannot see is a 404.
 */
export function collectionSeriesHandlers(
  deps: CollectionSeriesRouteDeps,
): Handlers<OperationIdsOf<typeof collectionSeriesOperations>> {
  const { browse } = deps;
  return {
    getSeriesByCollectionId: async (req) => {
      const ctx = listContext(req.user);
      const collection = await browse.books.canOpen(ctx, 'collection', req.params.id);
      if (!collection) throw notFound();
      const page = pageRequest(req.query);
      const found = await browse.series.list(
        {
          ctx,
          condition: seriesFilterCondition(req.query, [{ collectionId: { operator: 'is', value: req.params.id } }]),
        },
        [{ property: collection.ordered ? 'collection.number' : 'metadata.titleSort', descending: false }],
        page.slice,
      );
      return seriesPage(deps, req, found, page);
    },
  };
}
