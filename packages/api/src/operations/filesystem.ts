import { DirectoryListingDto, DirectoryRequestDto } from '../libraries.js';
import { defineOperation } from './operation.js';

/** The admin's folder picker (api.md §9.6). Without a body, or with an empty path, it lists the roots. */
export const filesystemOperations = {
  getDirectoryListing: defineOperation({
    operationId: 'getDirectoryListing',
    method: 'POST',
    path: '/api/v1/filesystem',
    tags: ['File system'],
    summary: 'Directory listing',
    access: 'ADMIN',
    body: DirectoryRequestDto,
    optionalBody: true,
    responses: { 200: DirectoryListingDto },
  }),
};
