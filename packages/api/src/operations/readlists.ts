import { Type } from 'typebox';
import { BookIdParams } from '../books.js';
import {
  CollectionIdParams,
  PageReadListDto,
  ReadListCreationBody,
  ReadListDto,
  ReadListListQuery,
  ReadListRequestMatchDto,
  ReadListUpdateDto,
} from '../collections.js';
import { binary, defineOperation, multipartFile, noContent } from './operation.js';

/**
 * Read lists of books (api.md §3.5): reads for every user (books filtered by their restrictions, a read list they
 * cannot see is a 404), writes for admins, the ZIP of the books for FILE_DOWNLOAD (§1.8). `getReadListsByBookId`
 * is under Komga's Books tag, and is declared here because the read-list service answers it.
 */
const tags = ['Readlists'] as const;
const byId = '/api/v1/readlists/{id}';

export const readListOperations = {
  getReadLists: defineOperation({
    operationId: 'getReadLists',
    method: 'GET',
    path: '/api/v1/readlists',
    tags,
    summary: 'List readlists',
    access: 'user',
    query: ReadListListQuery,
    responses: { 200: PageReadListDto },
  }),
  createReadList: defineOperation({
    operationId: 'createReadList',
    method: 'POST',
    path: '/api/v1/readlists',
    tags,
    summary: 'Create readlist',
    access: 'ADMIN',
    body: ReadListCreationBody,
    responses: { 200: ReadListDto },
  }),
  getReadListById: defineOperation({
    operationId: 'getReadListById',
    method: 'GET',
    path: byId,
    tags,
    summary: 'Get readlist details',
    access: 'user',
    params: CollectionIdParams,
    responses: { 200: ReadListDto },
  }),
  updateReadListById: defineOperation({
    operationId: 'updateReadListById',
    method: 'PATCH',
    path: byId,
    tags,
    summary: 'Update readlist',
    access: 'ADMIN',
    params: CollectionIdParams,
    body: ReadListUpdateDto,
    responses: noContent,
  }),
  deleteReadListById: defineOperation({
    operationId: 'deleteReadListById',
    method: 'DELETE',
    path: byId,
    tags,
    summary: 'Delete readlist',
    access: 'ADMIN',
    params: CollectionIdParams,
    responses: noContent,
  }),
  downloadReadListAsZip: defineOperation({
    operationId: 'downloadReadListAsZip',
    method: 'GET',
    path: `${byId}/file`,
    tags,
    summary: 'Download readlist',
    description: 'Download the whole readlist as a ZIP file.',
    access: 'FILE_DOWNLOAD',
    params: CollectionIdParams,
    responses: { 200: binary('a stored ZIP of the books the caller may see, in reading order') },
    produces: ['application/zip'],
  }),
  getReadListsByBookId: defineOperation({
    operationId: 'getReadListsByBookId',
    method: 'GET',
    path: '/api/v1/books/{bookId}/readlists',
    tags: ['Books'],
    summary: "List book's readlists",
    access: 'user',
    params: BookIdParams,
    responses: { 200: Type.Array(ReadListDto) },
  }),
  /** Parses a ComicRack list and finds its books in every library; the client then creates the list. */
  matchComicRackList: defineOperation({
    operationId: 'matchComicRackList',
    method: 'POST',
    path: '/api/v1/readlists/match/comicrack',
    tags: ['ComicRack'],
    summary: 'Match ComicRack list',
    access: 'ADMIN',
    body: multipartFile,
    consumes: ['multipart/form-data'],
    responses: { 200: ReadListRequestMatchDto },
  }),
  /** Beyond Komga: the list as a ComicRack reading list, the format `matchComicRackList` imports. */
  exportReadListAsCbl: defineOperation({
    operationId: 'exportReadListAsCbl',
    method: 'GET',
    path: `${byId}/cbl`,
    tags: ['Quire', ...tags],
    summary: 'Export readlist as a ComicRack reading list',
    access: 'user',
    params: CollectionIdParams,
    responses: { 200: binary('the .cbl file (XML)') },
    produces: ['application/xml'],
  }),
};
