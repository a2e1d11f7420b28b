import { Type } from 'typebox';
import { CollectionIdParams, CollectionThumbnailParams, ThumbnailReadListDto } from '../collections.js';
import { ThumbnailUploadQuery } from '../thumbnails.js';
import { accepted, binary, defineOperation, multipartFile } from './operation.js';

/** Posters of read lists (api.md §1.9, §4.5): images for every user who can see the read list, the rest for admins. */
const tags = ['Readlist Poster'] as const;
const posters = '/api/v1/readlists/{id}/thumbnails';

export const readListPosterOperations = {
  getReadListThumbnail: defineOperation({
    operationId: 'getReadListThumbnail',
    method: 'GET',
    path: '/api/v1/readlists/{id}/thumbnail',
    tags,
    summary: "Get readlist's poster image",
    access: 'user',
    params: CollectionIdParams,
    responses: { 200: binary('the uploaded poster, or a mosaic of the first books’ posters') },
    produces: ['image/jpeg'],
  }),
  getReadListThumbnails: defineOperation({
    operationId: 'getReadListThumbnails',
    method: 'GET',
    path: posters,
    tags,
    summary: "List readlist's posters",
    access: 'user',
    params: CollectionIdParams,
    responses: { 200: Type.Array(ThumbnailReadListDto) },
  }),
  getReadListThumbnailById: defineOperation({
    operationId: 'getReadListThumbnailById',
    method: 'GET',
    path: `${posters}/{thumbnailId}`,
    tags,
    summary: 'Get readlist poster image',
    access: 'user',
    params: CollectionThumbnailParams,
    responses: { 200: binary('the poster') },
    produces: ['image/jpeg'],
  }),
  addUserUploadedReadListThumbnail: defineOperation({
    operationId: 'addUserUploadedReadListThumbnail',
    method: 'POST',
    path: posters,
    tags,
    summary: 'Add readlist poster',
    access: 'ADMIN',
    params: CollectionIdParams,
    query: ThumbnailUploadQuery,
    body: multipartFile,
    consumes: ['multipart/form-data'],
    responses: { 200: ThumbnailReadListDto },
  }),
  markReadListThumbnailSelected: defineOperation({
    operationId: 'markReadListThumbnailSelected',
    method: 'PUT',
    path: `${posters}/{thumbnailId}/selected`,
    tags,
    summary: 'Mark readlist poster as selected',
    access: 'ADMIN',
    params: CollectionThumbnailParams,
    responses: accepted,
  }),
  deleteUserUploadedReadListThumbnail: defineOperation({
    operationId: 'deleteUserUploadedReadListThumbnail',
    method: 'DELETE',
    path: `${posters}/{thumbnailId}`,
    tags,
    summary: 'Delete readlist poster',
    access: 'ADMIN',
    params: CollectionThumbnailParams,
    responses: accepted,
  }),
};
