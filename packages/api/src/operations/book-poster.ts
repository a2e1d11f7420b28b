import {
  BookThumbnailByIdParams,
  BookThumbnailParams,
  RegenerateThumbnailsQuery,
  ThumbnailBookDto,
  ThumbnailUploadQuery,
} from '../thumbnails.js';
import { Type } from 'typebox';
import { accepted, binary, defineOperation, multipartFile } from './operation.js';

/**
 * Book posters (api.md §1.9, §3.3): reading needs a caller who may see the book, the rest ADMIN. Every poster is
 * answered as `image/jpeg`.
 */
const tags = ['Book Poster'] as const;
const base = '/api/v1/books/{bookId}';

export const bookPosterOperations = {
  getBookThumbnail: defineOperation({
    operationId: 'getBookThumbnail',
    method: 'GET',
    path: `${base}/thumbnail`,
    tags,
    access: 'user',
    params: BookThumbnailParams,
    responses: { 200: binary('The selected poster') },
    produces: ['image/jpeg'],
  }),
  getBookThumbnails: defineOperation({
    operationId: 'getBookThumbnails',
    method: 'GET',
    path: `${base}/thumbnails`,
    tags,
    access: 'user',
    params: BookThumbnailParams,
    responses: { 200: Type.Array(ThumbnailBookDto) },
  }),
  getBookThumbnailById: defineOperation({
    operationId: 'getBookThumbnailById',
    method: 'GET',
    path: `${base}/thumbnails/{thumbnailId}`,
    tags,
    access: 'user',
    params: BookThumbnailByIdParams,
    responses: { 200: binary('The poster') },
    produces: ['image/jpeg'],
  }),
  addUserUploadedBookThumbnail: defineOperation({
    operationId: 'addUserUploadedBookThumbnail',
    method: 'POST',
    path: `${base}/thumbnails`,
    tags,
    access: 'ADMIN',
    params: BookThumbnailParams,
    query: ThumbnailUploadQuery,
    body: multipartFile,
    consumes: ['multipart/form-data'],
    responses: { 200: ThumbnailBookDto },
  }),
  markBookThumbnailSelected: defineOperation({
    operationId: 'markBookThumbnailSelected',
    method: 'PUT',
    path: `${base}/thumbnails/{thumbnailId}/selected`,
    tags,
    access: 'ADMIN',
    params: BookThumbnailByIdParams,
    responses: accepted,
  }),
  deleteUserUploadedBookThumbnail: defineOperation({
    operationId: 'deleteUserUploadedBookThumbnail',
    method: 'DELETE',
    path: `${base}/thumbnails/{thumbnailId}`,
    tags,
    access: 'ADMIN',
    params: BookThumbnailByIdParams,
    responses: accepted,
  }),
  booksRegenerateThumbnails: defineOperation({
    operationId: 'booksRegenerateThumbnails',
    method: 'PUT',
    path: '/api/v1/books/thumbnails',
    tags,
    summary: 'Regenerate books posters',
    access: 'ADMIN',
    query: RegenerateThumbnailsQuery,
    responses: accepted,
  }),
};
