import { Type } from 'typebox';
import { BookImportBatchDto, ScanRequestDto, TransientBookDto } from '../import.js';
import { accepted, binary, defineOperation } from './operation.js';

/** Books from outside the libraries (api.md §3.11): the import screen's scan, analysis and pages, and the import. */
export const importOperations = {
  scanTransientBooks: defineOperation({
    operationId: 'scanTransientBooks',
    method: 'POST',
    path: '/api/v1/transient-books',
    tags: ['Import'],
    summary: 'Scan folder for transient books',
    description: 'Scan provided folder for transient books.',
    access: 'ADMIN',
    body: ScanRequestDto,
    responses: { 200: Type.Array(TransientBookDto) },
  }),
  analyzeTransientBook: defineOperation({
    operationId: 'analyzeTransientBook',
    method: 'POST',
    path: '/api/v1/transient-books/{id}/analyze',
    tags: ['Import'],
    summary: 'Analyze transient book',
    access: 'ADMIN',
    params: Type.Object({ id: Type.String() }),
    responses: { 200: TransientBookDto },
  }),
  getPageByTransientBookId: defineOperation({
    operationId: 'getPageByTransientBookId',
    method: 'GET',
    path: '/api/v1/transient-books/{id}/pages/{pageNumber}',
    tags: ['Import'],
    summary: 'Get transient book page',
    access: 'ADMIN',
    params: Type.Object({ id: Type.String(), pageNumber: Type.Integer() }),
    responses: { 200: binary('The page image') },
    produces: ['image/*', 'application/pdf'],
  }),
  importBooks: defineOperation({
    operationId: 'importBooks',
    method: 'POST',
    path: '/api/v1/books/import',
    tags: ['Import'],
    summary: 'Import books',
    access: 'ADMIN',
    body: BookImportBatchDto,
    responses: accepted,
  }),
};
