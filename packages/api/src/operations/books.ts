import { BookIdParams } from '../books.js';
import { BookMetadataBatchUpdateDto, BookMetadataUpdateDto } from '../metadata.js';
import { ReadProgressUpdateDto } from '../progress.js';
import { accepted, defineOperation, noContent } from './operation.js';

/** /api/v1/books (api.md §3.3): details, lists, downloads, edits, read progress, analysis and deletion. */
const tags = ['Books'] as const;
const byId = '/api/v1/books/{bookId}';

export const bookOperations = {
  updateBookMetadata: defineOperation({
    operationId: 'updateBookMetadata',
    method: 'PATCH',
    path: `${byId}/metadata`,
    tags,
    access: 'ADMIN',
    params: BookIdParams,
    body: BookMetadataUpdateDto,
    responses: noContent,
  }),
  updateBookMetadataByBatch: defineOperation({
    operationId: 'updateBookMetadataByBatch',
    method: 'PATCH',
    path: '/api/v1/books/metadata',
    tags,
    access: 'ADMIN',
    body: BookMetadataBatchUpdateDto,
    responses: noContent,
  }),
  bookRefreshMetadata: defineOperation({
    operationId: 'bookRefreshMetadata',
    method: 'POST',
    path: `${byId}/metadata/refresh`,
    tags,
    access: 'ADMIN',
    params: BookIdParams,
    responses: accepted,
  }),
  markBookReadProgress: defineOperation({
    operationId: 'markBookReadProgress',
    method: 'PATCH',
    path: `${byId}/read-progress`,
    tags,
    access: 'user',
    params: BookIdParams,
    body: ReadProgressUpdateDto,
    responses: noContent,
  }),
  deleteBookReadProgress: defineOperation({
    operationId: 'deleteBookReadProgress',
    method: 'DELETE',
    path: `${byId}/read-progress`,
    tags,
    access: 'user',
    params: BookIdParams,
    responses: noContent,
  }),
  deleteBookFile: defineOperation({
    operationId: 'deleteBookFile',
    method: 'DELETE',
    path: `${byId}/file`,
    tags,
    access: 'ADMIN',
    params: BookIdParams,
    responses: accepted,
  }),
};
