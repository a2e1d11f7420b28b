import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SettingsDto, SettingsRestartRequiredDto, SettingsUpdateDto, type RestartSetting } from '@quire/api';
import type { ServerSettingsValues } from '../../domain/settings.js';
import { newRememberMeKey } from '../../settings/server-settings.js';
import type { AppDeps } from '../deps.js';

/** Quire extension: the settings changed since start-up that wait for a restart (see below). */
export const RESTART_REQUIRED_HEADER = 'X-Quire-Restart-Required';

/**
 * Server settings (api.md §9.4), ADMIN only.
 *
 * Quire extension, outside Komga's DTOs: the port and the context path only apply after a restart (everything
 * else, the remember-me duration and key included, applies at once: docs/architecture.md). `GET /api/v1/settings/restart-required` answers
 * `{restartRequired, settings: [...]}` comparing the database with what this process started with, and
 * `PATCH /api/v1/settings` sends the same list in the `X-Quire-Restart-Required` header when it is not empty.
 */
export const settingsRoutes: FastifyPluginAsyncTypebox<AppDeps> = async (app, { settings, config, taskPool }) => {
  // Registered during start-up, so this is what the running process uses.
  const startedWith = await settings.get();

  const effectivePort = (s: ServerSettingsValues) => s.serverPort ?? config.port;
  const effectiveContextPath = (s: ServerSettingsValues) => s.serverContextPath ?? config.contextPath;

  function pendingRestart(now: ServerSettingsValues): RestartSetting[] {
    const pending: RestartSetting[] = [];
    if (effectivePort(now) !== effectivePort(startedWith)) pending.push('serverPort');
    if (effectiveContextPath(now) !== effectiveContextPath(startedWith)) pending.push('serverContextPath');
    return pending;
  }

  app.get(
    '/api/v1/settings',
    { schema: { response: { 200: SettingsDto } }, onRequest: app.requireRole('ADMIN') },
    async () => {
      const s = await settings.get();
      return {
        deleteEmptyCollections: s.deleteEmptyCollections,
        deleteEmptyReadLists: s.deleteEmptyReadLists,
        rememberMeDurationDays: s.rememberMeDurationDays,
        thumbnailSize: s.thumbnailSize,
        taskPoolSize: s.taskPoolSize,
        serverPort: {
          configurationSource: config.port,
          databaseSource: s.serverPort,
          effectiveValue: effectivePort(s),
        },
        serverContextPath: {
          configurationSource: config.contextPath,
          databaseSource: s.serverContextPath,
          effectiveValue: effectiveContextPath(s),
        },
        koboProxy: s.koboProxy,
        koboPort: s.koboPort,
        kepubifyPath: { configurationSource: null, databaseSource: s.kepubifyPath, effectiveValue: s.kepubifyPath },
      };
    },
  );

  app.patch(
    '/api/v1/settings',
    { schema: { body: SettingsUpdateDto }, onRequest: app.requireRole('ADMIN') },
    async (req, reply) => {
      const { renewRememberMeKey, ...body } = req.body;
      const patch: Partial<ServerSettingsValues> = {};
      // Booleans and numbers: omitted = unchanged. Port, context path, Kobo port, kepubify: null = delete.
      if (body.deleteEmptyCollections !== undefined) patch.deleteEmptyCollections = body.deleteEmptyCollections;
      if (body.deleteEmptyReadLists !== undefined) patch.deleteEmptyReadLists = body.deleteEmptyReadLists;
      if (body.rememberMeDurationDays !== undefined) patch.rememberMeDurationDays = body.rememberMeDurationDays;
      if (body.thumbnailSize !== undefined) patch.thumbnailSize = body.thumbnailSize;
      if (body.taskPoolSize !== undefined) patch.taskPoolSize = body.taskPoolSize;
      if (body.koboProxy !== undefined) patch.koboProxy = body.koboProxy;
      if (body.serverPort !== undefined) patch.serverPort = body.serverPort;
      if (body.serverContextPath !== undefined) patch.serverContextPath = body.serverContextPath;
      if (body.koboPort !== undefined) patch.koboPort = body.koboPort;
      if (body.kepubifyPath !== undefined) patch.kepubifyPath = body.kepubifyPath || null;
      if (renewRememberMeKey) patch.rememberMeKey = newRememberMeKey();

      const updated = await settings.update(patch);
      if (patch.taskPoolSize !== undefined) taskPool.resize(patch.taskPoolSize);
      const pending = pendingRestart(updated);
      if (pending.length > 0) reply.header(RESTART_REQUIRED_HEADER, pending.join(','));
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/settings/restart-required',
    { schema: { response: { 200: SettingsRestartRequiredDto } }, onRequest: app.requireRole('ADMIN') },
    async () => {
      const pending = pendingRestart(await settings.get());
      return { restartRequired: pending.length > 0, settings: pending };
    },
  );
};
