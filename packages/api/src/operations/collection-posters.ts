import { Type } from 'typebox';
import { CollectionIdParams, CollectionThumbnailParams, ThumbnailSeriesCollectionDto } from '../collections.js';
import { ThumbnailUploadQuery } from '../thumbnails.js';
import { accepted, binary, defineOperation, multipartFile } from './operation.js';

/** Posters of collections (api.md §1.9, §4.5): images for every user who can see the collection, the rest for admins. */
const tags = ['Collection Poster'] as const;
const posters = '/api/v1/collections/{id}/thumbnails';

export const collectionPosterOperations = {
  getCollectionThumbnail: defineOperation({
    operationId: 'getCollectionThumbnail',
    method: 'GET',
    path: '/api/v1/collections/{id}/thumbnail',
    tags,
    summary: "Get collection's poster image",
    access: 'user',
    params: CollectionIdParams,
    responses: { 200: binary('the uploaded poster, or a mosaic of the first series’ posters') },
    produces: ['image/jpeg'],
  }),
  getCollectionThumbnails: defineOperation({
    operationId: 'getCollectionThumbnails',
    method: 'GET',
    path: posters,
    tags,
    summary: "List collection's posters",
    access: 'user',
    params: CollectionIdParams,
    responses: { 200: Type.Array(ThumbnailSeriesCollectionDto) },
  }),
  getCollectionThumbnailById: defineOperation({
    operationId: 'getCollectionThumbnailById',
    method: 'GET',
    path: `${posters}/{thumbnailId}`,
    tags,
    summary: 'Get collection poster image',
    access: 'user',
    params: CollectionThumbnailParams,
    responses: { 200: binary('the poster') },
    produces: ['image/jpeg'],
  }),
  addUserUploadedCollectionThumbnail: defineOperation({
    operationId: 'addUserUploadedCollectionThumbnail',
    method: 'POST',
    path: posters,
    tags,
    summary: 'Add collection poster',
    access: 'ADMIN',
    params: CollectionIdParams,
    query: ThumbnailUploadQuery,
    body: multipartFile,
    consumes: ['multipart/form-data'],
    responses: { 200: ThumbnailSeriesCollectionDto },
  }),
  markCollectionThumbnailSelected: defineOperation({
    operationId: 'markCollectionThumbnailSelected',
    method: 'PUT',
    path: `${posters}/{thumbnailId}/selected`,
    tags,
    summary: 'Mark collection poster as selected',
    access: 'ADMIN',
    params: CollectionThumbnailParams,
    responses: accepted,
  }),
  deleteUserUploadedCollectionThumbnail: defineOperation({
    operationId: 'deleteUserUploadedCollectionThumbnail',
    method: 'DELETE',
    path: `${posters}/{thumbnailId}`,
    tags,
    summary: 'Delete collection poster',
    access: 'ADMIN',
    params: CollectionThumbnailParams,
    responses: accepted,
  }),
};
