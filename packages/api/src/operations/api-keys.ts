import { Type } from 'typebox';
import { ApiKeyDto, ApiKeyIdParams, ApiKeyRequestDto } from '../users.js';
import { defineOperation, noContent } from './operation.js';

/** /api/v2/users/me/api-keys (api.md §2.5): the caller's own API keys; the plain key is answered once. */
const tags = ['API Keys'] as const;

export const apiKeyOperations = {
  getApiKeysForCurrentUser: defineOperation({
    operationId: 'getApiKeysForCurrentUser',
    method: 'GET',
    path: '/api/v2/users/me/api-keys',
    tags,
    summary: 'Retrieve API keys',
    access: 'user',
    responses: { 200: Type.Array(ApiKeyDto) },
  }),
  createApiKeyForCurrentUser: defineOperation({
    operationId: 'createApiKeyForCurrentUser',
    method: 'POST',
    path: '/api/v2/users/me/api-keys',
    tags,
    summary: 'Create API key',
    access: 'user',
    body: ApiKeyRequestDto,
    responses: { 200: ApiKeyDto },
  }),
  deleteApiKeyByKeyId: defineOperation({
    operationId: 'deleteApiKeyByKeyId',
    method: 'DELETE',
    path: '/api/v2/users/me/api-keys/{keyId}',
    tags,
    summary: 'Delete API key',
    access: 'user',
    params: ApiKeyIdParams,
    responses: noContent,
  }),
};
