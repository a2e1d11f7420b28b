import { Type } from 'typebox';
import { defineOperation } from './operation.js';

/** The OpenAPI document of this server, emitted from the operation table (Komga serves its own there too). */
export const apiDocsOperations = {
  getApiDocs: defineOperation({
    operationId: 'getApiDocs',
    method: 'GET',
    path: '/v3/api-docs',
    tags: ['Quire'],
    summary: 'The OpenAPI document of this server',
    access: 'public',
    responses: { 200: Type.Record(Type.String(), Type.Unknown()) },
  }),
};
