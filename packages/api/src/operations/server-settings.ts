import { SettingsDto, SettingsRestartRequiredDto, SettingsUpdateDto } from '../settings.js';
import { defineOperation, noContent } from './operation.js';

/**
 * Server settings (api.md §9.4), ADMIN only. The port and the context path apply after a restart: Quire adds
 * `GET /api/v1/settings/restart-required`, and `PATCH` lists them in the `X-Quire-Restart-Required` header.
 */
const tags = ['Server settings'] as const;

export const serverSettingsOperations = {
  getServerSettings: defineOperation({
    operationId: 'getServerSettings',
    method: 'GET',
    path: '/api/v1/settings',
    tags,
    summary: 'Retrieve server settings',
    access: 'ADMIN',
    responses: { 200: SettingsDto },
  }),
  updateServerSettings: defineOperation({
    operationId: 'updateServerSettings',
    method: 'PATCH',
    path: '/api/v1/settings',
    tags,
    summary: 'Update server settings',
    description: 'Lists the changed settings that wait for a restart in the X-Quire-Restart-Required header.',
    access: 'ADMIN',
    body: SettingsUpdateDto,
    responses: noContent,
  }),
  getSettingsRestartRequired: defineOperation({
    operationId: 'getSettingsRestartRequired',
    method: 'GET',
    path: '/api/v1/settings/restart-required',
    tags: ['Quire', ...tags],
    summary: 'The settings changed since start-up that wait for a restart',
    access: 'ADMIN',
    responses: { 200: SettingsRestartRequiredDto },
  }),
};
