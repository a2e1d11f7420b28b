import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ClientSettingKeys, ClientSettingsDto, ClientSettingsGlobalUpdate, ClientSettingsUserUpdate } from '@quire/api';
import type { AppDeps } from '../deps.js';

/** Client settings (api.md §9.5): an opaque key/value store the web clients keep on the server. */
export const clientSettingsRoutes: FastifyPluginAsync<AppDeps> = async (instance, { clientSettings }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  // Public; anonymous callers only get the entries marked allowUnauthorized.
  app.get(
    '/api/v1/client-settings/global/list',
    { schema: { response: { 200: ClientSettingsDto } }, onRequest: app.authenticateIfAny },
    async (req) => Object.fromEntries(await clientSettings.global(!req.user)),
  );

  app.patch(
    '/api/v1/client-settings/global',
    { schema: { body: ClientSettingsGlobalUpdate }, onRequest: app.requireRole('ADMIN') },
    async (req, reply) => {
      await clientSettings.saveGlobal(req.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/v1/client-settings/global',
    { schema: { body: ClientSettingKeys }, onRequest: app.requireRole('ADMIN') },
    async (req, reply) => {
      await clientSettings.deleteGlobal(req.body);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/client-settings/user/list',
    { schema: { response: { 200: ClientSettingsDto } }, onRequest: app.authenticate },
    async (req) => {
      const settings = await clientSettings.user(req.user!.id);
      return Object.fromEntries([...settings].map(([key, value]) => [key, { value }]));
    },
  );

  app.patch(
    '/api/v1/client-settings/user',
    { schema: { body: ClientSettingsUserUpdate }, onRequest: app.authenticate },
    async (req, reply) => {
      await clientSettings.saveUser(req.user!.id, req.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/v1/client-settings/user',
    { schema: { body: ClientSettingKeys }, onRequest: app.authenticate },
    async (req, reply) => {
      await clientSettings.deleteUser(req.user!.id, req.body);
      return reply.code(204).send();
    },
  );
};
