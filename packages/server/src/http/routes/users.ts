import type { FastifyRequest } from 'fastify';
import type { apiKeyOperations, currentUserOperations, userOperations } from '@quire/api/operations';
import type { Accounts } from '../../accounts/index.js';
import { clientOf } from '../plugins/auth.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { toActivityPageRequest, toApiKeyDto, toAuthenticationActivityDto, toUserDto } from '../mappers/users.js';
import { toPage } from '../listing.js';

export interface UserRouteDeps {
  users: Pick<Accounts['users'], 'list' | 'create' | 'update' | 'delete' | 'changePassword'>;
  activity: Pick<Accounts['activity'], 'ofUser' | 'all' | 'latest'>;
  apiKeys: Pick<Accounts['apiKeys'], 'list' | 'create' | 'delete'>;
}

type UserOperationId = OperationIdsOf<typeof userOperations & typeof currentUserOperations & typeof apiKeyOperations>;

/** A request authenticated with HTTP Basic has just proved the caller's current password. */
const passwordContext = (req: FastifyRequest) => ({
  client: clientOf(req),
  passwordProven: req.credential === 'basic',
});

/**
 * /api/v2/users (api.md §3.7, §2.5): accounts, passwords, API keys, authentication activity. Who may change whose
 * password or read whose activity is the accounts service's decision.
 */
export function userHandlers({ users, activity, apiKeys }: UserRouteDeps): Handlers<UserOperationId> {
  return {
    // The login call: Basic (+ remember-me=true) on this URL opens the session (auth plugin).
    getCurrentUser: async (req) => toUserDto(req.user),
    getUsers: async () => (await users.list()).map(toUserDto),
    addUser: async (req, reply) => reply.code(201).send(toUserDto(await users.create(req.body))),
    updateUserById: async (req, reply) => {
      await users.update(req.user, req.params.id, req.body);
      return reply.code(204).send(null);
    },
    deleteUserById: async (req, reply) => {
      await users.delete(req.user, req.params.id);
      return reply.code(204).send(null);
    },
    updatePasswordForCurrentUser: async (req, reply) => {
      await users.changePassword(req.user, req.user.id, req.body, passwordContext(req));
      return reply.code(204).send(null);
    },
    updatePasswordByUserId: async (req, reply) => {
      await users.changePassword(req.user, req.params.id, req.body, passwordContext(req));
      return reply.code(204).send(null);
    },
    getAuthenticationActivityForCurrentUser: async (req) => {
      const { request, page } = toActivityPageRequest(req.query);
      const { rows, total } = await activity.ofUser(req.user.id, request);
      return toPage(rows.map(toAuthenticationActivityDto), total, page);
    },
    getAuthenticationActivity: async (req) => {
      const { request, page } = toActivityPageRequest(req.query);
      const { rows, total } = await activity.all(request);
      return toPage(rows.map(toAuthenticationActivityDto), total, page);
    },
    getLatestAuthenticationActivityByUserId: async (req) =>
      toAuthenticationActivityDto(await activity.latest(req.user, req.params.id, req.query.apikey_id)),
    getApiKeysForCurrentUser: async (req) => (await apiKeys.list(req.user.id)).map((k) => toApiKeyDto(k)),
    createApiKeyForCurrentUser: async (req) => {
      const { apiKey, plainKey } = await apiKeys.create(req.user.id, req.body.comment);
      return toApiKeyDto(apiKey, plainKey);
    },
    deleteApiKeyByKeyId: async (req, reply) => {
      await apiKeys.delete(req.user.id, req.params.keyId);
      return reply.code(204).send(null);
    },
  };
}
