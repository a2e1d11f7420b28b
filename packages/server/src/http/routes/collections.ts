import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CollectionDto, ThumbnailSeriesCollectionDto } from '@quire/api';
import type { collectionOperations, collectionPosterOperations } from '@quire/api/operations';
import type { CollectionService, CollectionView, StoredPoster } from '../../collections/index.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { pageRequest, toPage } from '../listing.js';
import { utcDateTime } from '../mappers/users.js';
import { readUpload } from './thumbnails.js';

/*
 * Collections (api.md §3.4): the service checks what the caller may see (members filtered by their restrictions,
 * invisible → 404); the table lets only admins write. The series of a collection are in collection-series.ts.
 */

/** Posters are a mosaic made on every request, so clients may keep them an hour (api.md §1.7). */
export const SET_THUMBNAIL_CACHE_CONTROL = 'max-age=3600, private';

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

export interface CollectionRouteDeps {
  collections: CollectionService;
}

export function collectionHandlers({
  collections,
}: CollectionRouteDeps): Handlers<
  OperationIdsOf<typeof collectionOperations> | OperationIdsOf<typeof collectionPosterOperations>
> {
  return {
    getCollections: async (req) => {
      const page = pageRequest(req.query);
      const { content, total } = await collections.list(req.user, {
        search: req.query.search,
        libraryIds: req.query.library_id ?? [],
        paging: page.slice ?? undefined,
      });
      return toPage(content.map(toCollectionDto), total, page);
    },
    createCollection: async (req) => toCollectionDto(await collections.create(req.user, req.body)),
    getCollectionById: async (req) => toCollectionDto(await collections.get(req.user, req.params.id)),
    updateCollectionById: async (req, reply) => {
      await collections.update(req.user, req.params.id, req.body);
      return reply.code(204).send(null);
    },
    deleteCollectionById: async (req, reply) => {
      await collections.delete(req.params.id);
      return reply.code(204).send(null);
    },
    getCollectionsBySeriesId: async (req) =>
      (await collections.ofSeries(req.user, req.params.seriesId)).map(toCollectionDto),

    getCollectionThumbnail: async (req, reply) =>
      sendSetThumbnail(req, reply, await collections.thumbnail(req.user, req.params.id)),
    getCollectionThumbnails: async (req) =>
      (await collections.posters(req.user, req.params.id)).map(toCollectionPosterDto),
    getCollectionThumbnailById: async (req, reply) =>
      reply.type('image/jpeg').send(await collections.posterBytes(req.user, req.params.id, req.params.thumbnailId)),
    addUserUploadedCollectionThumbnail: async (req) => {
      const { file, selected } = await readUpload(req, req.query.selected);
      return toCollectionPosterDto(await collections.uploadPoster(req.params.id, file, selected));
    },
    markCollectionThumbnailSelected: async (req, reply) => {
      await collections.selectPoster(req.params.id, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
    deleteUserUploadedCollectionThumbnail: async (req, reply) => {
      await collections.deletePoster(req.params.id, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
  };
}
