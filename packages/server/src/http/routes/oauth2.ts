import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OAuth2ClientDto } from '@quire/api';

/**
 * The OAuth2/OIDC providers the login page offers (api.md §2.7): public. Quire has no OAuth2 login yet, so the
 * true answer is that none is configured.
 */
export const oauth2Routes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v1/oauth2/providers', { schema: { response: { 200: Type.Array(OAuth2ClientDto) } } }, async () => []);
};
