import type { mediaManagementOperations } from '@quire/api/operations';
import type { MediaManagementQueries } from '../../db/queries/media-management.js';
import { pageRequest, seriesPage, type SeriesViews } from '../listing.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

export interface MediaManagementRouteDeps extends SeriesViews {
  mediaManagement: MediaManagementQueries;
}

/** `GET /api/v1/media-management/series-without-poster` (Quire): the series side of the missing posters tab. */
export function mediaManagementHandlers(
  deps: MediaManagementRouteDeps,
): Handlers<OperationIdsOf<typeof mediaManagementOperations>> {
  return {
    getSeriesWithoutPoster: async (req) => {
      const page = pageRequest({ page: req.query.page, size: req.query.size });
      const found = await deps.mediaManagement.seriesWithoutPoster({ offset: page.page * page.size, limit: page.size });
      return seriesPage(deps, req, { ...found, sorted: true }, page);
    },
  };
}
