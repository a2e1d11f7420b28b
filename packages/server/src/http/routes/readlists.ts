import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  BookIdParams,
  CollectionIdParams,
  CollectionListQuery,
  CollectionThumbnailParams,
  PageReadListDto,
  ReadListCreationBody,
  ReadListDto,
  ReadListUpdateDto,
  ThumbnailReadListDto,
  ThumbnailUploadQuery,
} from '@quire/api';
import type { ReadListSortProperty, ReadListView } from '../../collections/index.js';
import { contentDisposition, fileNameOf, streamStoredZip } from '../../library/book-files.js';
import type { AppDeps } from '../deps.js';
import { toPage, utcDateTime } from '../mappers/users.js';
import { pageRequestOf, pagingOf, sendSetThumbnail, toReadListPosterDto } from './collections.js';
import { readUpload } from './thumbnails.js';

/*
 * Read lists (api.md §3.5): reads for any user (books filtered by their restrictions, invisible → 404), writes
 * and posters for ADMIN, the ZIP of the books for FILE_DOWNLOAD (§1.8). The books of a read list
 * (`/readlists/{id}/books`, next/previous) are served with the other book lists; the CBL match import lives
 * with the import screens.
 *
 * Beyond Komga: `GET /api/v1/readlists/{id}/cbl` exports the list as a ComicRack reading list, the format
 * `POST /api/v1/readlists/match/comicrack` imports.
 */

const accepted = { 202: Type.Null({ description: 'Accepted' }) };
const noContent = { 204: Type.Null({ description: 'No Content' }) };
const SORT_PROPERTIES = new Set<string>(['name', 'createdDate', 'lastModifiedDate']);

/** `sort=prop[,prop…][,asc|desc]`, repeatable; unknown properties are ignored (api.md §1.4). */
function sortOf(values: readonly string[] | undefined) {
  const sort: { property: ReadListSortProperty; descending: boolean }[] = [];
  for (const value of values ?? []) {
    const parts = value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const last = parts.at(-1)?.toLowerCase();
    if (last === 'asc' || last === 'desc') parts.pop();
    for (const p of parts) {
      if (SORT_PROPERTIES.has(p)) sort.push({ property: p as ReadListSortProperty, descending: last === 'desc' });
    }
  }
  return sort;
}

export const toReadListDto = (r: ReadListView): ReadListDto => ({
  id: r.id,
  name: r.name,
  summary: r.summary,
  ordered: r.ordered,
  bookIds: r.bookIds,
  createdDate: utcDateTime(r.createdDate),
  lastModifiedDate: utcDateTime(r.lastModifiedDate),
  filtered: r.filtered,
});

export const readListRoutes: FastifyPluginAsyncTypebox<AppDeps> = async (app, { collections, libraries }) => {
  // Encapsulated in this plugin unless another plugin already parses multipart for every route.
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);
  const service = collections.readLists;
  const admin = app.requireRole('ADMIN');

  app.get(
    '/api/v1/readlists',
    { schema: { querystring: CollectionListQuery, response: { 200: PageReadListDto } }, onRequest: app.authenticate },
    async (req) => {
      const page = pageRequestOf(req.query);
      const { content, total } = await service.list(req.user!, {
        search: req.query.search,
        libraryIds: req.query.library_id ?? [],
        sort: sortOf(req.query.sort),
        paging: pagingOf(page),
      });
      return toPage(content.map(toReadListDto), total, page);
    },
  );

  app.post(
    '/api/v1/readlists',
    { schema: { body: ReadListCreationBody, response: { 200: ReadListDto } }, onRequest: admin },
    async (req) => toReadListDto(await service.create(req.user!, req.body)),
  );

  app.get(
    '/api/v1/readlists/:id',
    { schema: { params: CollectionIdParams, response: { 200: ReadListDto } }, onRequest: app.authenticate },
    async (req) => toReadListDto(await service.get(req.user!, req.params.id)),
  );

  app.patch(
    '/api/v1/readlists/:id',
    { schema: { params: CollectionIdParams, body: ReadListUpdateDto, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await service.update(req.user!, req.params.id, req.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v1/readlists/:id',
    { schema: { params: CollectionIdParams, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await service.delete(req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/books/:bookId/readlists',
    { schema: { params: BookIdParams, response: { 200: Type.Array(ReadListDto) } }, onRequest: app.authenticate },
    async (req) => (await service.ofBook(req.user!, req.params.bookId)).map(toReadListDto),
  );

  // A stored ZIP of the books the caller may see, in reading order: `<n> - <file name>` (api.md §1.8).
  app.get(
    '/api/v1/readlists/:id/file',
    { schema: { params: CollectionIdParams }, onRequest: app.requireRole('FILE_DOWNLOAD') },
    async (req, reply) => {
      const { name, books } = await service.exportedBooks(req.user!, req.params.id);
      const files = books.map((b, i) => ({ ...b, name: `${i + 1} - ${fileNameOf(b.url)}` }));
      return reply
        .type('application/zip')
        .header('Content-Disposition', contentDisposition('attachment', `${name}.zip`))
        .send(streamStoredZip(libraries.files, files));
    },
  );

  app.get(
    '/api/v1/readlists/:id/cbl',
    { schema: { params: CollectionIdParams }, onRequest: app.authenticate },
    async (req, reply) => {
      const { name, xml } = await service.comicRackList(req.user!, req.params.id);
      return reply
        .type('application/xml; charset=utf-8')
        .header('Content-Disposition', contentDisposition('attachment', `${name}.cbl`))
        .send(xml);
    },
  );

  app.get(
    '/api/v1/readlists/:id/thumbnail',
    { schema: { params: CollectionIdParams }, onRequest: app.authenticate },
    async (req, reply) => sendSetThumbnail(req, reply, await service.thumbnail(req.user!, req.params.id)),
  );

  app.get(
    '/api/v1/readlists/:id/thumbnails',
    {
      schema: { params: CollectionIdParams, response: { 200: Type.Array(ThumbnailReadListDto) } },
      onRequest: app.authenticate,
    },
    async (req) => (await service.posters(req.user!, req.params.id)).map(toReadListPosterDto),
  );

  app.get(
    '/api/v1/readlists/:id/thumbnails/:thumbnailId',
    { schema: { params: CollectionThumbnailParams }, onRequest: app.authenticate },
    async (req, reply) =>
      reply.type('image/jpeg').send(await service.posterBytes(req.user!, req.params.id, req.params.thumbnailId)),
  );

  app.post(
    '/api/v1/readlists/:id/thumbnails',
    {
      schema: {
        params: CollectionIdParams,
        querystring: ThumbnailUploadQuery,
        response: { 200: ThumbnailReadListDto },
      },
      onRequest: admin,
    },
    async (req) => {
      const { file, selected } = await readUpload(req, req.query.selected);
      return toReadListPosterDto(await service.uploadPoster(req.params.id, file, selected));
    },
  );

  app.put(
    '/api/v1/readlists/:id/thumbnails/:thumbnailId/selected',
    { schema: { params: CollectionThumbnailParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      await service.selectPoster(req.params.id, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
  );

  app.delete(
    '/api/v1/readlists/:id/thumbnails/:thumbnailId',
    { schema: { params: CollectionThumbnailParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      await service.deletePoster(req.params.id, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
  );
};
