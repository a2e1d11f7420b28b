import type { clientSettingsOperations } from '@quire/api/operations';
import type { ClientSettings } from '../../settings/client-settings.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

export interface ClientSettingsRouteDeps {
  clientSettings: ClientSettings;
}

/** Client settings (api.md §9.5): an opaque key/value store the web clients keep on the server. */
export function clientSettingsHandlers({
  clientSettings,
}: ClientSettingsRouteDeps): Handlers<OperationIdsOf<typeof clientSettingsOperations>> {
  return {
    getGlobalSettings: async (req) => clientSettings.global(req.user ? 'authenticated' : 'anonymous'),
    saveGlobalSetting: async (req, reply) => {
      await clientSettings.saveGlobal(req.body);
      return reply.code(204).send();
    },
    deleteGlobalSettings: async (req, reply) => {
      await clientSettings.deleteGlobal(req.body);
      return reply.code(204).send();
    },
    getUserSettings: async (req) => clientSettings.ofUser(req.user.id),
    saveUserSetting: async (req, reply) => {
      await clientSettings.saveForUser(req.user.id, req.body);
      return reply.code(204).send();
    },
    deleteUserSettings: async (req, reply) => {
      await clientSettings.deleteForUser(req.user.id, req.body);
      return reply.code(204).send();
    },
  };
}
