import type { serverSettingsOperations } from '@quire/api/operations';
import type { ServerSettingsService, SettingsChange } from '../../settings/settings-service.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

/** Quire extension: the settings changed since start-up that wait for a restart (see below). */
export const RESTART_REQUIRED_HEADER = 'X-Quire-Restart-Required';

export interface SettingsRouteDeps {
  serverSettings: ServerSettingsService;
}

/**
 * Server settings (api.md §9.4), ADMIN only.
 *
 * Quire extension, outside Komga's DTOs: the port and the context path only apply after a restart (everything
 * else, the remember-me duration and key included, applies at once: docs/architecture.md).
 * `GET /api/v1/settings/restart-required` answers `{restartRequired, settings: [...]}`, and `PATCH
 * /api/v1/settings` sends the same list in the `X-Quire-Restart-Required` header when it is not empty.
 */
export function settingsHandlers({
  serverSettings,
}: SettingsRouteDeps): Handlers<OperationIdsOf<typeof serverSettingsOperations>> {
  return {
    getServerSettings: async () => {
      const s = await serverSettings.view();
      return {
        deleteEmptyCollections: s.deleteEmptyCollections,
        deleteEmptyReadLists: s.deleteEmptyReadLists,
        rememberMeDurationDays: s.rememberMeDurationDays,
        thumbnailSize: s.thumbnailSize,
        taskPoolSize: s.taskPoolSize,
        serverPort: s.serverPort,
        serverContextPath: s.serverContextPath,
        koboProxy: s.koboProxy,
        koboPort: s.koboPort,
        kepubifyPath: s.kepubifyPath,
      };
    },
    updateServerSettings: async (req, reply) => {
      const body = req.body;
      const change: SettingsChange = { renewRememberMeKey: body.renewRememberMeKey };
      // Booleans and numbers: omitted = unchanged. Port, context path, Kobo port, kepubify: null = delete.
      if (body.deleteEmptyCollections !== undefined) change.deleteEmptyCollections = body.deleteEmptyCollections;
      if (body.deleteEmptyReadLists !== undefined) change.deleteEmptyReadLists = body.deleteEmptyReadLists;
      if (body.rememberMeDurationDays !== undefined) change.rememberMeDurationDays = body.rememberMeDurationDays;
      if (body.thumbnailSize !== undefined) change.thumbnailSize = body.thumbnailSize;
      if (body.taskPoolSize !== undefined) change.taskPoolSize = body.taskPoolSize;
      if (body.koboProxy !== undefined) change.koboProxy = body.koboProxy;
      if (body.serverPort !== undefined) change.serverPort = body.serverPort;
      if (body.serverContextPath !== undefined) change.serverContextPath = body.serverContextPath;
      if (body.koboPort !== undefined) change.koboPort = body.koboPort;
      if (body.kepubifyPath !== undefined) change.kepubifyPath = body.kepubifyPath || null;
      const pending = await serverSettings.update(change);
      if (pending.length > 0) reply.header(RESTART_REQUIRED_HEADER, pending.join(','));
      return reply.code(204).send();
    },
    getSettingsRestartRequired: async () => {
      const pending = await serverSettings.pendingRestart();
      return { restartRequired: pending.length > 0, settings: pending };
    },
  };
}
