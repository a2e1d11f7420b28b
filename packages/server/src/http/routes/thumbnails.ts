import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  BookThumbnailByIdParams,
  BookThumbnailParams,
  MAX_THUMBNAIL_UPLOAD_BYTES,
  RegenerateThumbnailsQuery,
  SeriesThumbnailByIdParams,
  SeriesThumbnailParams,
  ThumbnailBookDto,
  ThumbnailSeriesDto,
  ThumbnailUploadQuery,
} from '@quire/api';
import { badRequest, notFound } from '../../domain/errors.js';
import { PRIORITY } from '../../tasks/definitions.js';
import type { StoredThumbnail, ThumbnailOwner } from '../../library/thumbnails.js';
import { toThumbnailBookDto, toThumbnailSeriesDto } from '../mappers/thumbnails.js';
import type { AppDeps } from '../deps.js';

const accepted = { 202: Type.Null({ description: 'Accepted' }) };

/** The `file` part and an optional `selected` field; `selected` in the query is used when not in the form. */
export async function readUpload(req: FastifyRequest, querySelected: boolean | undefined) {
  if (!req.isMultipart()) throw badRequest("Required part 'file' is not present.");
  let file: Buffer | undefined;
  let selected = querySelected;
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_THUMBNAIL_UPLOAD_BYTES, files: 2, fields: 10 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file' && !file) file = bytes;
      } else if (part.fieldname === 'selected') {
        selected = !/^(false|0|off|no)$/i.test(String(part.value).trim());
      }
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw badRequest(`Maximum upload size exceeded: the poster must not exceed ${MAX_THUMBNAIL_UPLOAD_BYTES} bytes`);
    }
    throw e;
  }
  if (!file) throw badRequest("Required part 'file' is not present.");
  return { file, selected: selected ?? true };
}

/**
 * Book and series posters (api.md §1.9, §3.2-3.3): reading needs authentication and content visibility
 * (403 / 404, §2.10); upload, select and delete need ADMIN. Every image is answered as `image/jpeg`
 * (posters are stored as JPEG, see library/thumbnails.ts) and gets its ETag from the etag plugin (§1.7).
 */
export const thumbnailRoutes: FastifyPluginAsyncTypebox<AppDeps> = async (app, { thumbnails, tasks }) => {
  // Encapsulated in this plugin unless another plugin already parses multipart for every route.
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);

  const jpeg = (reply: FastifyReply, bytes: Buffer | null) => {
    if (!bytes) throw notFound();
    return reply.type('image/jpeg').send(bytes);
  };

  for (const owner of ['book', 'series'] as ThumbnailOwner[]) {
    const base = owner === 'book' ? '/api/v1/books/:bookId' : '/api/v1/series/:seriesId';
    const Params = owner === 'book' ? BookThumbnailParams : SeriesThumbnailParams;
    const ByIdParams = owner === 'book' ? BookThumbnailByIdParams : SeriesThumbnailByIdParams;
    const Dto = owner === 'book' ? ThumbnailBookDto : ThumbnailSeriesDto;
    const toDto: (t: StoredThumbnail) => ThumbnailBookDto | ThumbnailSeriesDto =
      owner === 'book' ? toThumbnailBookDto : toThumbnailSeriesDto;
    const ownerIdOf = (params: Record<string, string>) => (owner === 'book' ? params.bookId! : params.seriesId!);
    const checkAccess = (req: FastifyRequest, ownerId: string) =>
      owner === 'book'
        ? thumbnails.checkBookAccess(req.user!, ownerId)
        : thumbnails.checkSeriesAccess(req.user!, ownerId);

    app.get(`${base}/thumbnail`, { schema: { params: Params }, onRequest: app.authenticate }, async (req, reply) => {
      const id = ownerIdOf(req.params);
      await checkAccess(req, id);
      const bytes =
        owner === 'book' ? await thumbnails.bookPoster(id) : await thumbnails.seriesPoster(id, req.user!.id);
      return jpeg(reply, bytes);
    });

    app.get(
      `${base}/thumbnails`,
      { schema: { params: Params, response: { 200: Type.Array(Dto) } }, onRequest: app.authenticate },
      async (req) => {
        const id = ownerIdOf(req.params);
        await checkAccess(req, id);
        return (await thumbnails.list(owner, id)).map(toDto);
      },
    );

    app.get(
      `${base}/thumbnails/:thumbnailId`,
      { schema: { params: ByIdParams }, onRequest: app.authenticate },
      async (req, reply) => {
        const id = ownerIdOf(req.params);
        await checkAccess(req, id);
        return jpeg(reply, await thumbnails.thumbnailBytes(owner, id, req.params.thumbnailId));
      },
    );

    app.post(
      `${base}/thumbnails`,
      {
        schema: { params: Params, querystring: ThumbnailUploadQuery, response: { 200: Dto } },
        onRequest: app.requireRole('ADMIN'),
      },
      async (req) => {
        const { file, selected } = await readUpload(req, req.query.selected);
        return toDto(await thumbnails.upload(owner, ownerIdOf(req.params), file, selected));
      },
    );

    app.put(
      `${base}/thumbnails/:thumbnailId/selected`,
      { schema: { params: ByIdParams, response: accepted }, onRequest: app.requireRole('ADMIN') },
      async (req, reply) => {
        await thumbnails.select(owner, ownerIdOf(req.params), req.params.thumbnailId);
        return reply.code(202).send(null);
      },
    );

    app.delete(
      `${base}/thumbnails/:thumbnailId`,
      { schema: { params: ByIdParams, response: accepted }, onRequest: app.requireRole('ADMIN') },
      async (req, reply) => {
        await thumbnails.delete(owner, ownerIdOf(req.params), req.params.thumbnailId);
        return reply.code(202).send(null);
      },
    );
  }

  app.put(
    '/api/v1/books/thumbnails',
    { schema: { querystring: RegenerateThumbnailsQuery, response: accepted }, onRequest: app.requireRole('ADMIN') },
    async (req, reply) => {
      const forBiggerResultOnly = req.query.for_bigger_result_only ?? false;
      await tasks.submit([{ kind: 'FindBookThumbnailsToRegenerate', forBiggerResultOnly }], PRIORITY.LOWEST);
      return reply.code(202).send(null);
    },
  );
};
