import { Type } from 'typebox';
import {
  AuthenticationActivityDto,
  AuthenticationActivityQuery,
  LatestActivityQuery,
  PageAuthenticationActivityDto,
  PasswordUpdateDto,
  UserCreationDto,
  UserDto,
  UserIdParams,
  UserUpdateDto,
} from '../users.js';
import { defineOperation, noContent } from './operation.js';

/**
 * /api/v2/users (api.md §3.7): the accounts, for admins; a user's own password and latest activity also for
 * that user (the accounts service checks who may).
 */
const tags = ['Users'] as const;
const byId = '/api/v2/users/{id}';

export const userOperations = {
  getUsers: defineOperation({
    operationId: 'getUsers',
    method: 'GET',
    path: '/api/v2/users',
    tags,
    summary: 'List users',
    access: 'ADMIN',
    responses: { 200: Type.Array(UserDto) },
  }),
  addUser: defineOperation({
    operationId: 'addUser',
    method: 'POST',
    path: '/api/v2/users',
    tags,
    summary: 'Create user',
    access: 'ADMIN',
    body: UserCreationDto,
    responses: { 201: UserDto },
  }),
  updateUserById: defineOperation({
    operationId: 'updateUserById',
    method: 'PATCH',
    path: byId,
    tags,
    summary: 'Update user',
    access: 'ADMIN',
    params: UserIdParams,
    body: UserUpdateDto,
    responses: noContent,
  }),
  deleteUserById: defineOperation({
    operationId: 'deleteUserById',
    method: 'DELETE',
    path: byId,
    tags,
    summary: 'Delete user',
    access: 'ADMIN',
    params: UserIdParams,
    responses: noContent,
  }),
  updatePasswordByUserId: defineOperation({
    operationId: 'updatePasswordByUserId',
    method: 'PATCH',
    path: `${byId}/password`,
    tags,
    summary: "Update user's password",
    access: 'user',
    params: UserIdParams,
    body: PasswordUpdateDto,
    responses: noContent,
  }),
  getAuthenticationActivity: defineOperation({
    operationId: 'getAuthenticationActivity',
    method: 'GET',
    path: '/api/v2/users/authentication-activity',
    tags,
    summary: 'Retrieve authentication activity',
    access: 'ADMIN',
    query: AuthenticationActivityQuery,
    responses: { 200: PageAuthenticationActivityDto },
  }),
  getLatestAuthenticationActivityByUserId: defineOperation({
    operationId: 'getLatestAuthenticationActivityByUserId',
    method: 'GET',
    path: `${byId}/authentication-activity/latest`,
    tags,
    summary: 'Retrieve latest authentication activity for a user',
    access: 'user',
    params: UserIdParams,
    query: LatestActivityQuery,
    responses: { 200: AuthenticationActivityDto },
  }),
};
