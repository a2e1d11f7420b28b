import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  GroupCountDto,
  ListPagingQuery,
  PageBookDto,
  PageSeriesDto,
  SeriesBooksQuery,
  SeriesDto,
  SeriesIdParams,
  SeriesListQuery,
  SeriesRecentQuery,
} from '@quire/api';
import { checkSeriesCondition, listContext } from '../../db/queries/conditions.js';
import { parseSort, type SortOrder } from '../../db/queries/sort.js';
import { notFound } from '../../domain/errors.js';
import { isAdmin } from '../../domain/user.js';
import { contentDisposition, streamStoredZip } from '../../library/book-files.js';
import { PRIORITY } from '../../tasks/definitions.js';
import type { AppDeps } from '../deps.js';
import { toSeriesDto } from '../mappers/series.js';
import { bookFilterCondition, bookPage, pageRequest, seriesFilterCondition, seriesPage } from '../listing.js';
import { checkAccess } from './books.js';

const accepted = { 202: Type.Null({ description: 'Accepted' }) };

/** `POST /series/list` body; the condition tree is checked by checkSeriesCondition (a 400 when malformed). */
const SeriesSearchBody = Type.Object({
  condition: Type.Optional(Type.Unknown()),
  fullTextSearch: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** The requested orders; with none, relevance when there is a full-text search (api.md §1.4). */
function ordersOf(sort: string[] | undefined, fullText: string | null | undefined): SortOrder[] {
  const orders = parseSort(sort);
  if (orders.length === 0 && fullText && fullText.trim() !== '') return [{ property: 'relevance', descending: false }];
  return orders;
}

/** `search_regex=regex,FIELD` (split on the last comma; TITLE or TITLE_SORT, any case), else ignored. */
function regexOf(value: string | undefined): { pattern: string; field: 'title' | 'titleSort' } | null {
  if (!value) return null;
  const i = value.lastIndexOf(',');
  if (i < 0) return null;
  const field = value.slice(i + 1).toLowerCase();
  if (field !== 'title' && field !== 'title_sort') return null;
  return { pattern: value.slice(0, i), field: field === 'title' ? 'title' : 'titleSort' };
}

/** Series (api.md §3.2): details, ZIP download of its books, analysis. */
export const seriesRoutes: FastifyPluginAsync<AppDeps> = async (instance, deps) => {
  const { books, tasks, browse } = deps;
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const auth = app.authenticate;

  // ---- lists (api.md §3.2, §5) ----

  app.post(
    '/api/v1/series/list',
    {
      schema: { querystring: ListPagingQuery, body: SeriesSearchBody, response: { 200: PageSeriesDto } },
      onRequest: auth,
    },
    async (req) => {
      const page = pageRequest(req.query);
      const condition = checkSeriesCondition(req.body.condition);
      const fullText = req.body.fullTextSearch;
      const found = await browse.series.list(
        { ctx: listContext(req.user!), condition, fullText },
        ordersOf(req.query.sort, fullText),
        page.slice,
      );
      return seriesPage(deps, req, found, page);
    },
  );

  app.post(
    '/api/v1/series/list/alphabetical-groups',
    { schema: { body: SeriesSearchBody, response: { 200: Type.Array(GroupCountDto) } }, onRequest: auth },
    async (req) =>
      browse.series.groups({
        ctx: listContext(req.user!),
        condition: checkSeriesCondition(req.body.condition),
        fullText: req.body.fullTextSearch,
      }),
  );

  app.get(
    '/api/v1/series',
    {
      schema: { querystring: SeriesListQuery, response: { 200: PageSeriesDto } },
      onRequest: auth,
    },
    async (req) => {
      const page = pageRequest(req.query);
      const found = await browse.series.list(
        {
          ctx: listContext(req.user!),
          condition: seriesFilterCondition(req.query),
          fullText: req.query.search,
          regex: regexOf(req.query.search_regex),
        },
        ordersOf(req.query.sort, req.query.search),
        page.slice,
      );
      return seriesPage(deps, req, found, page);
    },
  );

  app.get(
    '/api/v1/series/alphabetical-groups',
    {
      schema: { querystring: SeriesListQuery, response: { 200: Type.Array(GroupCountDto) } },
      onRequest: auth,
    },
    async (req) =>
      browse.series.groups({
        ctx: listContext(req.user!),
        condition: seriesFilterCondition(req.query),
        fullText: req.query.search,
        regex: regexOf(req.query.search_regex),
      }),
  );

  const recent = (path: string, property: 'lastModified' | 'created', updatedOnly: boolean) =>
    app.get(
      path,
      {
        schema: { querystring: SeriesRecentQuery, response: { 200: PageSeriesDto } },
        onRequest: auth,
      },
      async (req) => {
        const page = pageRequest(req.query);
        const found = await browse.series.list(
          {
            ctx: listContext(req.user!),
            condition: seriesFilterCondition({
              library_id: req.query.library_id,
              deleted: req.query.deleted,
              oneshot: req.query.oneshot,
            }),
            updatedOnly,
          },
          [{ property, descending: true }],
          page.slice,
        );
        return seriesPage(deps, req, found, page);
      },
    );
  // Added or changed; added; changed since added (engine.md §16).
  recent('/api/v1/series/latest', 'lastModified', false);
  recent('/api/v1/series/new', 'created', false);
  recent('/api/v1/series/updated', 'lastModified', true);

  app.get(
    '/api/v1/series/:seriesId/books',
    {
      schema: { params: SeriesIdParams, querystring: SeriesBooksQuery, response: { 200: PageBookDto } },
      onRequest: auth,
    },
    async (req) => {
      const series = await books.series.findAccess(req.params.seriesId);
      if (!series) throw notFound();
      checkAccess(req.user!, series);
      const page = pageRequest(req.query);
      const orders = parseSort(req.query.sort);
      const found = await browse.books.list(
        {
          ctx: listContext(req.user!),
          condition: bookFilterCondition(req.query, [{ seriesId: { operator: 'is', value: req.params.seriesId } }]),
        },
        orders.length ? orders : [{ property: 'metadata.numberSort', descending: false }],
        page.slice,
      );
      return bookPage(deps, req, found, page);
    },
  );

  app.get(
    '/api/v1/series/:seriesId',
    { schema: { params: SeriesIdParams, response: { 200: SeriesDto } }, onRequest: app.authenticate },
    async (req, reply) => {
      const series = await books.series.findById(req.params.seriesId, req.user!.id);
      // 404 with an empty body, as Komga's handler answers (api.md §1.6).
      if (!series) return (reply as FastifyReply).code(404).send();
      checkAccess(req.user!, series.access);
      return toSeriesDto(series, isAdmin(req.user!));
    },
  );

  // A stored ZIP (Zip64) of the book files, streamed: no Content-Length, no ETag (api.md §1.8).
  app.get(
    '/api/v1/series/:seriesId/file',
    { schema: { params: SeriesIdParams }, onRequest: app.requireRole('FILE_DOWNLOAD') },
    async (req, reply) => {
      const series = await books.series.findAccess(req.params.seriesId);
      if (!series) throw notFound();
      checkAccess(req.user!, series);
      const files = await books.series.books(req.params.seriesId);
      return reply
        .type('application/zip')
        .header('Content-Disposition', contentDisposition('attachment', `${series.title}.zip`))
        .send(
          streamStoredZip(
            deps.libraries.files,
            files.map((f) => ({ libraryId: f.libraryId, url: f.url })),
          ),
        );
    },
  );

  app.post(
    '/api/v1/series/:seriesId/analyze',
    { schema: { params: SeriesIdParams, response: accepted }, onRequest: app.requireRole('ADMIN') },
    async (req, reply) => {
      if (!(await books.series.findAccess(req.params.seriesId))) throw notFound();
      const list = await books.series.books(req.params.seriesId);
      await tasks.submit(
        list.map((b) => ({ kind: 'AnalyzeBook' as const, bookId: b.id, seriesId: b.seriesId })),
        PRIORITY.HIGH,
      );
      return reply.code(202).send(null);
    },
  );
};
