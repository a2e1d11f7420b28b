import { Type } from 'typebox';
import { BookIdParams, BookPageDto, BookPageParams, BookPageQuery } from '../books.js';
import { binary, defineOperation } from './operation.js';

/** The pages of a book (api.md §1.9, §3.3): their list, each page as an image, as stored, and as a thumbnail. */
const tags = ['Book Pages'] as const;
const page = '/api/v1/books/{bookId}/pages/{pageNumber}';

/** The raw page and the page thumbnail count from 0 with `zero_based=true`, as the page does. */
const PageNumberingQuery = Type.Object({ zero_based: Type.Optional(Type.Boolean()) });

export const bookPageOperations = {
  getBookPages: defineOperation({
    operationId: 'getBookPages',
    method: 'GET',
    path: '/api/v1/books/{bookId}/pages',
    tags,
    summary: 'List book pages',
    access: 'user',
    params: BookIdParams,
    responses: { 200: Type.Array(BookPageDto) },
  }),
  getBookPageByNumber: defineOperation({
    operationId: 'getBookPageByNumber',
    method: 'GET',
    path: page,
    tags,
    summary: 'Get book page image',
    access: 'PAGE_STREAMING',
    params: BookPageParams,
    query: BookPageQuery,
    /** A PDF book's page comes as a one-page PDF when `Accept` prefers `application/pdf` (api.md §1.9). */
    headers: Type.Object({ Accept: Type.Optional(Type.String()) }),
    responses: { 200: binary('The page image') },
    produces: ['image/*', 'application/pdf'],
  }),
  getBookPageRawByNumber: defineOperation({
    operationId: 'getBookPageRawByNumber',
    method: 'GET',
    path: `${page}/raw`,
    tags,
    summary: 'Get raw book page',
    access: 'PAGE_STREAMING',
    params: BookPageParams,
    query: PageNumberingQuery,
    responses: { 200: binary('The page as stored in the book') },
    produces: ['*/*'],
  }),
  getBookPageThumbnailByNumber: defineOperation({
    operationId: 'getBookPageThumbnailByNumber',
    method: 'GET',
    path: `${page}/thumbnail`,
    tags,
    summary: 'Get book page thumbnail',
    access: 'user',
    params: BookPageParams,
    query: PageNumberingQuery,
    responses: { 200: binary('The page thumbnail') },
    produces: ['image/jpeg'],
  }),
};
