import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ClaimHeaders, ClaimStatusDto, UserDto } from '@quire/api';
import type { AppDeps } from '../deps.js';
import { toUserDto } from '../mappers/users.js';

/** First run (api.md §2.4): public; the first user gets every role. Does not log the caller in. */
export const claimRoutes: FastifyPluginAsync<AppDeps> = async (instance, { accounts }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/claim', { schema: { response: { 200: ClaimStatusDto } } }, async () => ({
    isClaimed: await accounts.users.isClaimed(),
  }));

  app.post('/api/v1/claim', { schema: { headers: ClaimHeaders, response: { 200: UserDto } } }, async (req) =>
    toUserDto(await accounts.users.claim(req.headers['x-komga-email'], req.headers['x-komga-password'])),
  );
};
