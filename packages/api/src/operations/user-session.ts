import { defineOperation, empty, noContent } from './operation.js';

/**
 * Logout and set-cookie (api.md §2.4). Logout needs no authentication and answers any of four methods (Komga's
 * CSRF protection is off, so Spring's logout matches them all); Komga's document lists GET and POST only, so PUT
 * and DELETE carry a Quire tag.
 */
const tags = ['User session'] as const;
const logout = {
  path: '/api/logout',
  summary: 'Logout',
  description: 'XHR and JSON requests get 204; a browser navigation is redirected to the login page.',
  access: 'public',
  responses: { ...noContent, 302: empty('Browser navigation: redirect to the login page') },
} as const;

export const userSessionOperations = {
  postLogout: defineOperation({ ...logout, operationId: 'postLogout', method: 'GET', tags }),
  postLogout_1: defineOperation({ ...logout, operationId: 'postLogout_1', method: 'POST', tags }),
  putLogout: defineOperation({ ...logout, operationId: 'putLogout', method: 'PUT', tags: ['Quire', ...tags] }),
  deleteLogout: defineOperation({ ...logout, operationId: 'deleteLogout', method: 'DELETE', tags: ['Quire', ...tags] }),
  convertHeaderSessionToCookie: defineOperation({
    operationId: 'convertHeaderSessionToCookie',
    method: 'GET',
    path: '/api/v1/login/set-cookie',
    tags,
    summary: 'Set the session cookie from the X-Auth-Token session',
    access: 'user',
    responses: noContent,
  }),
};
