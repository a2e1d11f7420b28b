import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_THUMBNAIL_UPLOAD_BYTES } from '@quire/api';
import type { bookPosterOperations, seriesPosterOperations } from '@quire/api/operations';
import { badRequest, notFound } from '../../domain/errors.js';
import type { Thumbnails } from '../../library/thumbnails.js';
import { toThumbnailBookDto, toThumbnailSeriesDto } from '../mappers/thumbnails.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

/**
 * The first `file` part of a multipart request and its text fields. The reader stops at `maxBytes`, so a bigger
 * file is never held whole: it is a 400 with `tooLarge` as message.
 */
export async function readMultipartFile(
  req: FastifyRequest,
  maxBytes: number,
  tooLarge: string,
): Promise<{ file: Buffer; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw badRequest("Required part 'file' is not present.");
  let file: Buffer | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 2, fields: 10 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file' && !file) file = bytes;
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(tooLarge);
    throw e;
  }
  if (!file) throw badRequest("Required part 'file' is not present.");
  return { file, fields };
}

/** A poster upload: the `file` part and an optional `selected` field; `selected` in the query is used when not in the form. */
export async function readUpload(req: FastifyRequest, querySelected: boolean | undefined) {
  const { file, fields } = await readMultipartFile(
    req,
    MAX_THUMBNAIL_UPLOAD_BYTES,
    `Maximum upload size exceeded: the poster must not exceed ${MAX_THUMBNAIL_UPLOAD_BYTES} bytes`,
  );
  const selected = fields.selected === undefined ? querySelected : !/^(false|0|off|no)$/i.test(fields.selected.trim());
  return { file, selected: selected ?? true };
}

type PosterOperation = OperationIdsOf<typeof bookPosterOperations> | OperationIdsOf<typeof seriesPosterOperations>;

/**
 * Book and series posters (api.md §1.9, §3.2-3.3): reading needs authentication and content visibility
 * (403 / 404, §2.10); upload, select and delete need ADMIN. Every image is answered as `image/jpeg`
 * (posters are stored as JPEG, see library/thumbnails.ts) and gets its ETag from the etag plugin (§1.7).
 */
export function thumbnailHandlers({ thumbnails }: { thumbnails: Thumbnails }): Handlers<PosterOperation> {
  const jpeg = (reply: FastifyReply, bytes: Buffer | null) => {
    if (!bytes) throw notFound();
    return reply.type('image/jpeg').send(bytes);
  };
  return {
    getBookThumbnail: async (req, reply) => {
      await thumbnails.checkBookAccess(req.user, req.params.bookId);
      return jpeg(reply, await thumbnails.bookPoster(req.params.bookId));
    },
    getSeriesThumbnail: async (req, reply) => {
      await thumbnails.checkSeriesAccess(req.user, req.params.seriesId);
      return jpeg(reply, await thumbnails.seriesPoster(req.params.seriesId, req.user.id));
    },
    getBookThumbnails: async (req) => {
      await thumbnails.checkBookAccess(req.user, req.params.bookId);
      return (await thumbnails.list('book', req.params.bookId)).map(toThumbnailBookDto);
    },
    getSeriesThumbnails: async (req) => {
      await thumbnails.checkSeriesAccess(req.user, req.params.seriesId);
      return (await thumbnails.list('series', req.params.seriesId)).map(toThumbnailSeriesDto);
    },
    getBookThumbnailById: async (req, reply) => {
      await thumbnails.checkBookAccess(req.user, req.params.bookId);
      return jpeg(reply, await thumbnails.thumbnailBytes('book', req.params.bookId, req.params.thumbnailId));
    },
    getSeriesThumbnailById: async (req, reply) => {
      await thumbnails.checkSeriesAccess(req.user, req.params.seriesId);
      return jpeg(reply, await thumbnails.thumbnailBytes('series', req.params.seriesId, req.params.thumbnailId));
    },
    addUserUploadedBookThumbnail: async (req) => {
      const { file, selected } = await readUpload(req, req.query.selected);
      return toThumbnailBookDto(await thumbnails.upload('book', req.params.bookId, file, selected));
    },
    addUserUploadedSeriesThumbnail: async (req) => {
      const { file, selected } = await readUpload(req, req.query.selected);
      return toThumbnailSeriesDto(await thumbnails.upload('series', req.params.seriesId, file, selected));
    },
    markBookThumbnailSelected: async (req, reply) => {
      await thumbnails.select('book', req.params.bookId, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
    markSeriesThumbnailSelected: async (req, reply) => {
      await thumbnails.select('series', req.params.seriesId, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
    deleteUserUploadedBookThumbnail: async (req, reply) => {
      await thumbnails.delete('book', req.params.bookId, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
    deleteUserUploadedSeriesThumbnail: async (req, reply) => {
      await thumbnails.delete('series', req.params.seriesId, req.params.thumbnailId);
      return reply.code(202).send(null);
    },
    booksRegenerateThumbnails: async (req, reply) => {
      await thumbnails.queueRegeneration(req.query.for_bigger_result_only ?? false);
      return reply.code(202).send(null);
    },
  };
}
