import { Type } from 'typebox';
import { BookIdParams } from '../books.js';
import { R2PositionsDto, WPPublicationDto } from '../webpub.js';
import { R2ProgressionDto } from '../progress.js';
import { binary, defineOperation, empty, noContent } from './operation.js';

/** Readium: WebPub manifests, positions, progression and EPUB resources of a book (api.md §3.3, engine.md §13). */
const tags = ['WebPub Manifest'] as const;
const byId = '/api/v1/books/{bookId}';

const manifest = {
  method: 'GET',
  tags,
  access: 'user',
  params: BookIdParams,
  responses: { 200: WPPublicationDto },
} as const;

export const webPubOperations = {
  getBookWebPubManifest: defineOperation({
    ...manifest,
    operationId: 'getBookWebPubManifest',
    path: `${byId}/manifest`,
    summary: "Get a book's WebPub manifest, of the book's profile",
    produces: ['application/webpub+json', 'application/divina+json'],
  }),
  getBookWebPubManifestEpub: defineOperation({
    ...manifest,
    operationId: 'getBookWebPubManifestEpub',
    path: `${byId}/manifest/epub`,
    produces: ['application/webpub+json'],
  }),
  getBookWebPubManifestPdf: defineOperation({
    ...manifest,
    operationId: 'getBookWebPubManifestPdf',
    path: `${byId}/manifest/pdf`,
    produces: ['application/webpub+json'],
  }),
  getBookWebPubManifestDivina: defineOperation({
    ...manifest,
    operationId: 'getBookWebPubManifestDivina',
    path: `${byId}/manifest/divina`,
    produces: ['application/divina+json'],
  }),
  getBookPositions: defineOperation({
    operationId: 'getBookPositions',
    method: 'GET',
    path: `${byId}/positions`,
    tags,
    access: 'user',
    params: BookIdParams,
    responses: { 200: R2PositionsDto },
    produces: ['application/vnd.readium.position-list+json'],
  }),
  /**
   * A file of an EPUB by its path in the book. Fonts are public (a reader's CSS loads them without credentials), so
   * the handler authenticates the rest itself.
   */
  getBookEpubResource: defineOperation({
    operationId: 'getBookEpubResource',
    method: 'GET',
    path: `${byId}/resource/{resource}`,
    restParam: 'resource',
    tags,
    access: 'handler',
    params: Type.Object({ bookId: Type.String(), resource: Type.String() }),
    responses: { 200: binary('The resource') },
    produces: ['*/*'],
  }),
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
