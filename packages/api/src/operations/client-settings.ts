import {
  ClientSettingKeys,
  ClientSettingsDto,
  ClientSettingsGlobalUpdate,
  ClientSettingsUserUpdate,
} from '../client-settings.js';
import { defineOperation, noContent } from './operation.js';

/**
 * Client settings (api.md §9.5): an opaque key/value store the web clients keep on the server. The global list is
 * public (anonymous callers get only the entries marked allowUnauthorized); global writes are for admins.
 */
const tags = ['Client settings'] as const;
const global = '/api/v1/client-settings/global';
const user = '/api/v1/client-settings/user';

export const clientSettingsOperations = {
  getGlobalSettings: defineOperation({
    operationId: 'getGlobalSettings',
    method: 'GET',
    path: `${global}/list`,
    tags,
    summary: 'Retrieve global client settings',
    access: 'optional',
    responses: { 200: ClientSettingsDto },
  }),
  saveGlobalSetting: defineOperation({
    operationId: 'saveGlobalSetting',
    method: 'PATCH',
    path: global,
    tags,
    summary: 'Save global client setting',
    access: 'ADMIN',
    body: ClientSettingsGlobalUpdate,
    responses: noContent,
  }),
  deleteGlobalSettings: defineOperation({
    operationId: 'deleteGlobalSettings',
    method: 'DELETE',
    path: global,
    tags,
    summary: 'Delete global client settings',
    access: 'ADMIN',
    body: ClientSettingKeys,
    responses: noContent,
  }),
  getUserSettings: defineOperation({
    operationId: 'getUserSettings',
    method: 'GET',
    path: `${user}/list`,
    tags,
    summary: 'Retrieve user client settings',
    access: 'user',
    responses: { 200: ClientSettingsDto },
  }),
  saveUserSetting: defineOperation({
    operationId: 'saveUserSetting',
    method: 'PATCH',
    path: user,
    tags,
    summary: 'Save user client setting',
    access: 'user',
    body: ClientSettingsUserUpdate,
    responses: noContent,
  }),
  deleteUserSettings: defineOperation({
    operationId: 'deleteUserSettings',
    method: 'DELETE',
    path: user,
    tags,
    summary: 'Delete user client settings',
    access: 'user',
    body: ClientSettingKeys,
    responses: noContent,
  }),
};
