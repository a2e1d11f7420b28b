import { DirectoryListingDto, DirectoryRequestDto } from '../libraries.js';
import { defineOperation } from './operation.js';

/** The admin's folder picker (api.md §9.6). */
export const filesystemOperations = {
  getDirectoryListing: defineOperation({
    operationId: 'getDirectoryListing',
    method: 'POST',
    path: '/api/v1/filesystem',
    tags: ['File system'],
    summary: 'Directory listing',
    access: 'ADMIN',
    body: DirectoryRequestDto,
    responses: { 200: DirectoryListingDto },
  }),
};
