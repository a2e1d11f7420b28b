import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CollectionSeriesQuery, MemberListParams, PageSeriesDto } from '@quire/api';
import { listContext } from '../../db/queries/conditions.js';
import { notFound } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { pageRequest, seriesFilterCondition, seriesPage } from '../listing.js';

/**
 * The series of a collection (api.md §3.4): the deprecated series filters, in collection order when the collection
 * is ordered, else by sort title (any `sort` parameter is ignored). A collection the caller cannot see is a 404.
 */
export const collectionSeriesRoutes: FastifyPluginAsync<AppDeps> = async (instance, deps) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { browse } = deps;

  app.get(
    '/api/v1/collections/:id/series',
    {
      schema: { params: MemberListParams, querystring: CollectionSeriesQuery, response: { 200: PageSeriesDto } },
      onRequest: app.authenticate,
    },
    async (req) => {
      const ctx = listContext(req.user!);
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
  );
};
