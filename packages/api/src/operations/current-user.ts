import {
  AuthenticationActivityQuery,
  PageAuthenticationActivityDto,
  PasswordUpdateDto,
  RememberMeQuery,
  UserDto,
} from '../users.js';
import { defineOperation, noContent } from './operation.js';

/** /api/v2/users/me (api.md §3.7): the caller's own account. */
const tags = ['Current user'] as const;

export const currentUserOperations = {
  getCurrentUser: defineOperation({
    operationId: 'getCurrentUser',
    method: 'GET',
    path: '/api/v2/users/me',
    tags,
    summary: 'Retrieve current user',
    description: 'The login call: HTTP Basic (with remember-me=true) on this URL opens the session (api.md §2.4).',
    access: 'user',
    query: RememberMeQuery,
    responses: { 200: UserDto },
  }),
  updatePasswordForCurrentUser: defineOperation({
    operationId: 'updatePasswordForCurrentUser',
    method: 'PATCH',
    path: '/api/v2/users/me/password',
    tags,
    summary: "Update current user's password",
    access: 'user',
    body: PasswordUpdateDto,
    responses: noContent,
  }),
  getAuthenticationActivityForCurrentUser: defineOperation({
    operationId: 'getAuthenticationActivityForCurrentUser',
    method: 'GET',
    path: '/api/v2/users/me/authentication-activity',
    tags,
    summary: 'Retrieve authentication activity for the current user',
    access: 'user',
    query: AuthenticationActivityQuery,
    responses: { 200: PageAuthenticationActivityDto },
  }),
};
