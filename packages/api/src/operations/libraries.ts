import { Type } from 'typebox';
import { LibraryCreationDto, LibraryDto, LibraryIdParams, LibraryScanQuery, LibraryUpdateDto } from '../libraries.js';
import { accepted, defineOperation, noContent } from './operation.js';

/** /api/v1/libraries (api.md §3.1): reads for every user (their shared libraries), the rest for admins. */
const tags = ['Libraries'] as const;
const byId = '/api/v1/libraries/{libraryId}';

const updateLibrary = {
  method: 'PATCH',
  path: byId,
  tags,
  access: 'ADMIN',
  params: LibraryIdParams,
  body: LibraryUpdateDto,
  responses: noContent,
} as const;

export const libraryOperations = {
  getLibraries: defineOperation({
    operationId: 'getLibraries',
    method: 'GET',
    path: '/api/v1/libraries',
    tags,
    summary: 'List all libraries',
    access: 'user',
    responses: { 200: Type.Array(LibraryDto) },
  }),
  addLibrary: defineOperation({
    operationId: 'addLibrary',
    method: 'POST',
    path: '/api/v1/libraries',
    tags,
    summary: 'Create a library',
    access: 'ADMIN',
    body: LibraryCreationDto,
    responses: { 200: LibraryDto },
  }),
  getLibraryById: defineOperation({
    operationId: 'getLibraryById',
    method: 'GET',
    path: byId,
    tags,
    summary: 'Get details for a single library',
    access: 'user',
    params: LibraryIdParams,
    responses: { 200: LibraryDto },
  }),
  updateLibraryById: defineOperation({
    ...updateLibrary,
    operationId: 'updateLibraryById',
    summary: 'Update a library',
  }),
  updateLibraryByIdDeprecated: defineOperation({
    ...updateLibrary,
    operationId: 'updateLibraryByIdDeprecated',
    method: 'PUT',
    tags: ['Deprecated', ...tags],
    summary: 'Update a library',
    deprecated: true,
  }),
  deleteLibraryById: defineOperation({
    operationId: 'deleteLibraryById',
    method: 'DELETE',
    path: byId,
    tags,
    summary: 'Delete a library',
    access: 'ADMIN',
    params: LibraryIdParams,
    responses: noContent,
  }),
  libraryScan: defineOperation({
    operationId: 'libraryScan',
    method: 'POST',
    path: `${byId}/scan`,
    tags,
    summary: 'Scan a library',
    access: 'ADMIN',
    params: LibraryIdParams,
    query: LibraryScanQuery,
    responses: accepted,
  }),
  libraryAnalyze: defineOperation({
    operationId: 'libraryAnalyze',
    method: 'POST',
    path: `${byId}/analyze`,
    tags,
    summary: 'Analyze library',
    access: 'ADMIN',
    params: LibraryIdParams,
    responses: accepted,
  }),
  libraryRefreshMetadata: defineOperation({
    operationId: 'libraryRefreshMetadata',
    method: 'POST',
    path: `${byId}/metadata/refresh`,
    tags,
    summary: 'Refresh metadata',
    access: 'ADMIN',
    params: LibraryIdParams,
    responses: accepted,
  }),
  libraryEmptyTrash: defineOperation({
    operationId: 'libraryEmptyTrash',
    method: 'POST',
    path: `${byId}/empty-trash`,
    tags,
    summary: 'Empty trash',
    access: 'ADMIN',
    params: LibraryIdParams,
    responses: accepted,
  }),
};
