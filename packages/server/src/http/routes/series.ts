import type { FastifyRequest } from 'fastify';
import type { SearchConditionSeries } from '@quire/api';
import type { Operations, seriesOperations } from '@quire/api/operations';
import { listContext } from '../../db/queries/conditions.js';
import { parseSort } from '../../db/queries/sort.js';
import { notFound } from '../../domain/errors.js';
import { isAdmin } from '../../domain/user.js';
import type { BookAnalyzer } from '../../library/book-analyzer.js';
import { contentDisposition, streamStoredZip } from '../../library/book-files.js';
import type { LibraryFiles } from '../../library/library-files.js';
import type { AppDeps } from '../deps.js';
import { toSeriesDto } from '../mappers/series.js';
import {
  bookFilterCondition,
  bookPage,
  ordersOf,
  pageRequest,
  searchRequest,
  seriesFilterCondition,
  seriesPage,
} from '../listing.js';
import type { Handlers, OperationIdsOf, OperationRequest } from '../operations.js';
import { checkAccess } from './book-content.js';

/** `search_regex=regex,FIELD` (split on the last comma; TITLE or TITLE_SORT, any case), else ignored. */
function regexOf(value: string | undefined): { pattern: string; field: 'title' | 'titleSort' } | null {
  if (!value) return null;
  const i = value.lastIndexOf(',');
  if (i < 0) return null;
  const field = value.slice(i + 1).toLowerCase();
  if (field !== 'title' && field !== 'title_sort') return null;
  return { pattern: value.slice(0, i), field: field === 'title' ? 'title' : 'titleSort' };
}

export interface SeriesRouteDeps {
  books: Pick<AppDeps['books'], 'queries' | 'series'>;
  analyzer: Pick<BookAnalyzer, 'queueAnalysis'>;
  browse: AppDeps['browse'];
  files: LibraryFiles;
}

/** What these handlers answer; the series edits, read progress and file deletion are elsewhere. */
type SeriesOperation = Exclude<
  OperationIdsOf<typeof seriesOperations>,
  'updateSeriesMetadata' | 'seriesRefreshMetadata' | 'markSeriesAsRead' | 'markSeriesAsUnread' | 'deleteSeriesFile'
>;

/** Series (api.md §3.2): details, lists, ZIP download of its books, analysis. */
export function seriesHandlers(deps: SeriesRouteDeps): Handlers<SeriesOperation> {
  const { books, browse, files, analyzer } = deps;

  const groups = (req: FastifyRequest & { user: NonNullable<FastifyRequest['user']> }, search: Search) =>
    browse.series.groups({ ctx: listContext(req.user), ...search });

  /** Added or changed; added; changed since added (engine.md §16). */
  const recent =
    (property: 'lastModified' | 'created', updatedOnly: boolean) =>
    async (req: OperationRequest<Operations['getSeriesLatest']>) => {
      const page = pageRequest(req.query);
      const found = await browse.series.list(
        {
          ctx: listContext(req.user),
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
    };

  return {
    // ---- lists (api.md §3.2, §5) ----

    getSeries: async (req) => {
      const { search, orders, page } = searchRequest(req);
      return seriesPage(deps, req, await browse.series.list(search, orders, page.slice), page);
    },
    getSeriesAlphabeticalGroups: (req) =>
      groups(req, { condition: req.body.condition ?? null, fullText: req.body.fullTextSearch }),
    getSeriesDeprecated: async (req) => {
      const page = pageRequest(req.query);
      const found = await browse.series.list(
        {
          ctx: listContext(req.user),
          condition: seriesFilterCondition(req.query),
          fullText: req.query.search,
          regex: regexOf(req.query.search_regex),
        },
        ordersOf(req.query.sort, req.query.search),
        page.slice,
      );
      return seriesPage(deps, req, found, page);
    },
    getSeriesAlphabeticalGroupsDeprecated: (req) =>
      groups(req, {
        condition: seriesFilterCondition(req.query),
        fullText: req.query.search,
        regex: regexOf(req.query.search_regex),
      }),
    getSeriesLatest: recent('lastModified', false),
    getSeriesNew: recent('created', false),
    getSeriesUpdated: recent('lastModified', true),

    getBooksBySeriesId: async (req) => {
      const series = await books.series.findAccess(req.params.seriesId);
      if (!series) throw notFound();
      checkAccess(req.user, series);
      const page = pageRequest(req.query);
      const orders = parseSort(req.query.sort);
      const found = await browse.books.list(
        {
          ctx: listContext(req.user),
          condition: bookFilterCondition(req.query, [{ seriesId: { operator: 'is', value: req.params.seriesId } }]),
        },
        orders.length ? orders : [{ property: 'metadata.numberSort', descending: false }],
        page.slice,
      );
      return bookPage(deps, req, found, page);
    },

    getSeriesById: async (req, reply) => {
      const series = await books.series.findById(req.params.seriesId, req.user.id);
      // 404 with an empty body, as Komga's handler answers (api.md §1.6).
      if (!series) return reply.code(404).send();
      checkAccess(req.user, series.access);
      return toSeriesDto(series, isAdmin(req.user));
    },

    // A stored ZIP (Zip64) of the book files, streamed: no Content-Length, no ETag (api.md §1.8).
    downloadSeriesAsZip: async (req, reply) => {
      const series = await books.series.findAccess(req.params.seriesId);
      if (!series) throw notFound();
      checkAccess(req.user, series);
      const list = await books.series.books(req.params.seriesId);
      return reply
        .type('application/zip')
        .header('Content-Disposition', contentDisposition('attachment', `${series.title}.zip`))
        .send(
          streamStoredZip(
            files,
            list.map((f) => ({ libraryId: f.libraryId, url: f.url })),
          ),
        );
    },

    seriesAnalyze: async (req, reply) => {
      if (!(await books.series.findAccess(req.params.seriesId))) throw notFound();
      await analyzer.queueAnalysis(await books.series.books(req.params.seriesId));
      return reply.code(202).send(null);
    },
  };
}

interface Search {
  condition: SearchConditionSeries | null;
  fullText?: string | null;
  regex?: ReturnType<typeof regexOf>;
}
