import { BookIdParams } from '../books.js';
import { R2ProgressionDto } from '../progress.js';
import { defineOperation, empty, noContent } from './operation.js';

/** Readium: WebPub manifests, positions, progression and EPUB resources of a book (api.md §3.3, engine.md §13). */
const tags = ['WebPub Manifest'] as const;
const byId = '/api/v1/books/{bookId}';

export const webPubOperations = {
  getBookProgression: defineOperation({
    operationId: 'getBookProgression',
    method: 'GET',
    path: `${byId}/progression`,
    tags,
    access: 'user',
    params: BookIdParams,
    responses: { 200: R2ProgressionDto, 204: empty('No progression yet') },
    produces: ['application/vnd.readium.progression+json'],
  }),
  updateBookProgression: defineOperation({
    operationId: 'updateBookProgression',
    method: 'PUT',
    path: `${byId}/progression`,
    tags,
    access: 'user',
    params: BookIdParams,
    body: R2ProgressionDto,
    responses: noContent,
  }),
};
