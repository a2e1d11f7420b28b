import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ApiKeyDto,
  ApiKeyIdParams,
  ApiKeyRequestDto,
  AuthenticationActivityDto,
  AuthenticationActivityQuery,
  LatestActivityQuery,
  PageAuthenticationActivityDto,
  PasswordUpdateDto,
  RememberMeQuery,
  UserCreationDto,
  UserDto,
  UserIdParams,
  UserUpdateDto,
} from '@quire/api';
import type { AppDeps } from '../deps.js';
import { clientOf } from '../plugins/auth.js';
import { toActivityPageRequest, toApiKeyDto, toAuthenticationActivityDto, toUserDto } from '../mappers/users.js';
import { toPage } from '../listing.js';

const noContent = { 204: Type.Null({ description: 'No Content' }) };

/** A request authenticated with HTTP Basic has just proved the caller's current password. */
const passwordContext = (req: FastifyRequest) => ({
  client: clientOf(req),
  passwordProven: req.credential === 'basic',
});

/** /api/v2/users (api.md §3.7, §2.5): accounts, passwords, API keys, authentication activity. */
export const userRoutes: FastifyPluginAsync<AppDeps> = async (instance, { accounts }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const admin = app.requireRole('ADMIN');
  const auth = app.authenticate;

  // The login call: Basic (+ remember-me=true) on this URL opens the session (auth plugin).
  app.get(
    '/api/v2/users/me',
    { schema: { querystring: RememberMeQuery, response: { 200: UserDto } }, onRequest: auth },
    async (req) => toUserDto(req.user!),
  );

  app.get('/api/v2/users', { schema: { response: { 200: Type.Array(UserDto) } }, onRequest: admin }, async () =>
    (await accounts.users.list()).map(toUserDto),
  );

  app.post(
    '/api/v2/users',
    { schema: { body: UserCreationDto, response: { 201: UserDto } }, onRequest: admin },
    async (req, reply) => reply.code(201).send(toUserDto(await accounts.users.create(req.body))),
  );

  app.patch(
    '/api/v2/users/:id',
    { schema: { params: UserIdParams, body: UserUpdateDto, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await accounts.users.update(req.user!, req.params.id, req.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/v2/users/:id',
    { schema: { params: UserIdParams, response: noContent }, onRequest: admin },
    async (req, reply) => {
      await accounts.users.delete(req.user!, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/v2/users/me/password',
    { schema: { body: PasswordUpdateDto, response: noContent }, onRequest: auth },
    async (req, reply) => {
      await accounts.users.changePassword(req.user!, req.user!.id, req.body, passwordContext(req));
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/v2/users/:id/password',
    { schema: { params: UserIdParams, body: PasswordUpdateDto, response: noContent }, onRequest: auth },
    async (req, reply) => {
      await accounts.users.changePassword(req.user!, req.params.id, req.body, passwordContext(req));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v2/users/me/authentication-activity',
    {
      schema: { querystring: AuthenticationActivityQuery, response: { 200: PageAuthenticationActivityDto } },
      onRequest: auth,
    },
    async (req) => {
      const { request, page } = toActivityPageRequest(req.query);
      const { rows, total } = await accounts.activity.ofUser(req.user!.id, request);
      return toPage(rows.map(toAuthenticationActivityDto), total, page);
    },
  );

  app.get(
    '/api/v2/users/authentication-activity',
    {
      schema: { querystring: AuthenticationActivityQuery, response: { 200: PageAuthenticationActivityDto } },
      onRequest: admin,
    },
    async (req) => {
      const { request, page } = toActivityPageRequest(req.query);
      const { rows, total } = await accounts.activity.all(request);
      return toPage(rows.map(toAuthenticationActivityDto), total, page);
    },
  );

  app.get(
    '/api/v2/users/:id/authentication-activity/latest',
    {
      schema: { params: UserIdParams, querystring: LatestActivityQuery, response: { 200: AuthenticationActivityDto } },
      onRequest: auth,
    },
    async (req) =>
      toAuthenticationActivityDto(await accounts.activity.latest(req.user!, req.params.id, req.query.apikey_id)),
  );

  app.get(
    '/api/v2/users/me/api-keys',
    { schema: { response: { 200: Type.Array(ApiKeyDto) } }, onRequest: auth },
    async (req) => (await accounts.apiKeys.list(req.user!.id)).map((k) => toApiKeyDto(k)),
  );

  app.post(
    '/api/v2/users/me/api-keys',
    { schema: { body: ApiKeyRequestDto, response: { 200: ApiKeyDto } }, onRequest: auth },
    async (req) => {
      const { apiKey, plainKey } = await accounts.apiKeys.create(req.user!.id, req.body.comment);
      return toApiKeyDto(apiKey, plainKey);
    },
  );

  app.delete(
    '/api/v2/users/me/api-keys/:keyId',
    { schema: { params: ApiKeyIdParams, response: noContent }, onRequest: auth },
    async (req, reply) => {
      await accounts.apiKeys.delete(req.user!.id, req.params.keyId);
      return reply.code(204).send(null);
    },
  );
};
