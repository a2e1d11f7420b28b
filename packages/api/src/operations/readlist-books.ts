import { BookDto, PageBookDto } from '../books.js';
import { MemberListParams, ReadListBookParams, ReadListBooksQuery } from '../search.js';
import { defineOperation } from './operation.js';

/**
 * The books of a read list and a book's neighbours in it (api.md §3.5): list order when the read list is ordered,
 * else release date. Hidden books are skipped; a read list the caller cannot see is a 404.
 */
const tags = ['Readlist Books'] as const;

export const readListBookOperations = {
  getBooksByReadListId: defineOperation({
    operationId: 'getBooksByReadListId',
    method: 'GET',
    path: '/api/v1/readlists/{id}/books',
    tags,
    summary: "List readlist's books",
    access: 'user',
    params: MemberListParams,
    query: ReadListBooksQuery,
    responses: { 200: PageBookDto },
  }),
  getBookSiblingNextInReadList: defineOperation({
    operationId: 'getBookSiblingNextInReadList',
    method: 'GET',
    path: '/api/v1/readlists/{id}/books/{bookId}/next',
    tags,
    summary: 'Get next book in readlist',
    access: 'user',
    params: ReadListBookParams,
    responses: { 200: BookDto },
  }),
  getBookSiblingPreviousInReadList: defineOperation({
    operationId: 'getBookSiblingPreviousInReadList',
    method: 'GET',
    path: '/api/v1/readlists/{id}/books/{bookId}/previous',
    tags,
    summary: 'Get previous book in readlist',
    access: 'user',
    params: ReadListBookParams,
    responses: { 200: BookDto },
  }),
};
