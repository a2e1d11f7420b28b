import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  CollectionCreationDto,
  CollectionDto,
  CollectionIdParams,
  CollectionListQuery,
  CollectionThumbnailParams,
  CollectionUpdateDto,
  PageCollectionDto,
  SeriesIdParams,
  ThumbnailSeriesCollectionDto,
  ThumbnailUploadQuery,
} from '@quire/api';
import type { CollectionView, StoredPoster } from '../../collections/index.js';
import type { AppDeps } from '../deps.js';
import { toPage, utcDateTime, type PageRequest } from '../mappers/users.js';
import { readUpload } from './thumbnails.js';

/*
 * Collections (api.md §3.4): reads for any user (members filtered by their restrictions, invisible → 404),
 * writes and posters for ADMIN. The series of a collection (`/collections/{id}/series`) are served with the
 * other series lists.
 */

const accepted = { 202: Type.Null({ description: 'Accepted' }) };
const noContent = { 204: Type.Null({ description: 'No Content' }) };

/** Posters are a mosaic made on every request, so clients may keep them an hour (api.md §1.7). */
export const SET_THUMBNAIL_CACHE_CONTROL = 'max-age=3600, private';

/** page / size / unpaged as Spring reads them (api.md §1.4). */
export function pageRequestOf(q: { page?: number; size?: number; unpaged?: boolean }): PageRequest {
  const page = Math.max(0, q.page ?? 0);
  const size = q.size === undefined || q.size < 1 ? 20 : Math.min(q.size, 2000);
  return { page, size, unpaged: q.unpaged === true };
}

export const pagingOf = (p: PageRequest) => (p.unpaged ? undefined : { offset: p.page * p.size, limit: p.size });

const posterFields = (p: StoredPoster) => ({
  id: p.id,
  type: 'USER_UPLOADED',
  selected: p.selected,
  mediaType: p.mediaType,
  fileSize: p.fileSize,
  width: p.width,
  height: p.height,
});

export const toCollectionPosterDto = (p: StoredPoster): ThumbnailSeriesCollectionDto => ({
  ...posterFields(p),
  collectionId: p.ownerId,
});

export const toReadListPosterDto = (p: StoredPoster) => ({ ...posterFields(p), readListId: p.ownerId });

export const toCollectionDto = (c: CollectionView): CollectionDto => ({
  id: c.id,
  name: c.name,
  ordered: c.ordered,
  seriesIds: c.seriesIds,
  createdDate: utcDateTime(c.createdDate),
  lastModifiedDate: utcDateTime(c.lastModifiedDate),
  filtered: c.filtered,
});

const ifNoneMatch = (req: FastifyRequest, etag: string) =>
  (req.headers['if-none-match'] ?? '')
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);

/**
 * A set's `/thumbnail`: the uploaded poster, or the mosaic, which is only composed when the client does not
 * already hold it (its ETag is known from the tiles).
 */
export async function sendSetThumbnail(
  req: FastifyRequest,
  reply: FastifyReply,
  poster: { bytes: Buffer } | { etag: string; render(): Promise<Buffer> },
) {
  reply.header('cache-control', SET_THUMBNAIL_CACHE_CONTROL);
  if ('bytes' in poster) return reply.type('image/jpeg').send(poster.bytes);
  reply.header('etag', poster.etag);
  if (ifNoneMatch(req, poster.etag)) return reply.code(304).send();
  return reply.type('image/jpeg').send(await poster.render());
}

export const collectionRoutes: FastifyPluginAsyncTypebox<AppDeps> = async (app, { collections }) => {
  // Encapsulated in this plugin unless another plugin already parses multipart for every route.
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);
  const service = collections.collections;
  const admin = app.requireRole('ADMIN');

  app.get(
    '/api/v1/collections',
    {
      schema: { querystring: CollectionListQuery, response: { 200: PageCollectionDto } },
      onRequest: app.authenticate,
    },
    async (req) => {
      const page = pageRequestOf(req.query);
      const { content, total } = await service.list(req.user!, {
        search: req.query.search,
        libraryIds: req.query.library_id ?? [],
        paging: pagingOf(page),
      });
      return toPage(content.map(toCollectionDto), total, page);
    },
  );

  app.post(
    '/api/v1/collections',
    { schema: { body: CollectionCreationDto, response: { 200: CollectionDto } }, onRequest: admin },
    async (req) => toCollectionDto(await service.create(req.user!, req.body)),
  );

  app.get(
    '/api/v1/collections/:id',
    { schema: { params: CollectionIdParams, response: { 200: CollectionDto } }, onRequest: app.authenticate },
    async (req) => toCollectionDto(await service.get(req.user!, req.params.id)),
  );

  app.patch(
    '/api/v1/collections/:id',
    { schema: { params: CollectionIdParams, body: CollectionUpdateDto, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await service.update(req.user!, req.params.id, req.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v1/collections/:id',
    { schema: { params: CollectionIdParams, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await service.delete(req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/series/:seriesId/collections',
    { schema: { params: SeriesIdParams, response: { 200: Type.Array(CollectionDto) } }, onRequest: app.authenticate },
    async (req) => (await service.ofSeries(req.user!, req.params.seriesId)).map(toCollectionDto),
  );

  app.get(
    '/api/v1/collections/:id/thumbnail',
    { schema: { params: CollectionIdParams }, onRequest: app.authenticate },
    async (req, reply) => sendSetThumbnail(req, reply, await service.thumbnail(req.user!, req.params.id)),
  );

  app.get(
    '/api/v1/collections/:id/thumbnails',
    {
      schema: { params: CollectionIdParams, response: { 200: Type.Array(ThumbnailSeriesCollectionDto) } },
      onRequest: app.authenticate,
    },
    async (req) => (await service.posters(req.user!, req.params.id)).map(toCollectionPosterDto),
  );

  app.get(
    '/api/v1/collections/:id/thumbnails/:thumbnailId',
    { schema: { params: CollectionThumbnailParams }, onRequest: app.authenticate },
    async (req, reply) =>
      reply.type('image/jpeg').send(await service.posterBytes(req.user!, req.params.id, req.params.thumbnailId)),
  );

  app.post(
    '/api/v1/collections/:id/thumbnails',
    {
      schema: {
        params: CollectionIdParams,
        querystring: ThumbnailUploadQuery,
        response: { 200: ThumbnailSeriesCollectionDto },
      },
      onRequest: admin,
    },
    async (req) => {
      const { file, selected } = await readUpload(req, req.query.selected);
      return toCollectionPosterDto(await service.uploadPoster(req.params.id, file, selected));
    },
  );

  app.put(
    '/api/v1/collections/:id/thumbnails/:thumbnailId/selected',
    { schema: { params: CollectionThumbnailParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      await service.selectPoster(req.params.id, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
  );

  app.delete(
    '/api/v1/collections/:id/thumbnails/:thumbnailId',
    { schema: { params: CollectionThumbnailParams, response: accepted }, onRequest: admin },
    async (req, reply) => {
      await service.deletePoster(req.params.id, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
  );
};
