import { Type } from 'typebox';
import { OAuth2ClientDto } from '../users.js';
import { defineOperation } from './operation.js';

/** The OAuth2/OIDC providers the login page offers (api.md §2.7): public. */
export const oauth2Operations = {
  getOAuth2Providers: defineOperation({
    operationId: 'getOAuth2Providers',
    method: 'GET',
    path: '/api/v1/oauth2/providers',
    tags: ['OAuth2'],
    summary: 'List registered OAuth2 providers',
    access: 'public',
    responses: { 200: Type.Array(OAuth2ClientDto) },
  }),
};
