import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Authenticator } from '../../../accounts/authenticator.js';
import { QuireError } from '../../../domain/errors.js';
import { TooManyAttempts } from '../../../accounts/login-throttle.js';
import type { KoreaderSync } from '../../../reading/koreader-sync.js';
import { clientOf, headerValue } from '../../plugins/auth.js';
import { sendError } from '../../plugins/errors.js';

/** What Komga's kosync controller produces; KOReader decodes any `application/…json` answer. */
const KOREADER_JSON = 'application/vnd.koreader.v1+json';

/** `PUT /syncs/progress`, as KOReader's kosync plugin sends it (it may add `metadata`, which is not used). */
const ProgressBody = Type.Object({
  document: Type.String({ minLength: 1 }),
  progress: Type.Union([Type.String(), Type.Number()]),
  percentage: Type.Number({ minimum: 0, maximum: 1 }),
  device: Type.String(),
  device_id: Type.String(),
});

export interface KoreaderRouteDeps {
  authenticator: Pick<Authenticator, 'apiKey'>;
  koreader: KoreaderSync;
}

/**
 * KOReader's progress sync server (api.md §8.1) under `{ctx}/koreader`: the device's kosync plugin is set up with
 * a Quire API key as its username (sent as `X-Auth-User` on every call; `X-Auth-Key`, the MD5 of any password, is
 * not read), whose user needs the KOREADER_SYNC role. Plain routes: Komga's OpenAPI document leaves them out.
 *
 * Statuses are the ones KOReader acts on (koreader-client.md): a push counts only when answered 200 (anything
 * else but 401 is queued and sent again later), login only on 200, and 401 is what it understands as "wrong
 * credentials" on every call. So a missing or unknown key, or a user without the role, is a 401 with a message
 * KOReader shows (Komga answers 403, which the plugin reports as an unknown error, and retries a push forever).
 */
export const koreaderRoutes: FastifyPluginAsync<KoreaderRouteDeps> = async (app, deps) => {
  const { koreader } = deps;

  const authenticate = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = headerValue(req.headers['x-auth-user']).trim();
    if (!key) return sendError(reply, req, 401, 'Give KOReader a Quire API key as its username');
    try {
      req.user = await deps.authenticator.apiKey(key, clientOf(req));
      req.credential = 'api-key';
    } catch (err) {
      if (!(err instanceof QuireError)) throw err;
      if (err instanceof TooManyAttempts) reply.header('Retry-After', String(err.retryAfterSeconds));
      return sendError(reply, req, err.status, err.status === 401 ? 'Unknown API key' : err.message);
    }
    if (!req.user.roles.has('KOREADER_SYNC'))
      return sendError(reply, req, 401, 'The user of this API key does not have the KOREADER_SYNC role');
  };

  // Accounts are made in Quire: registering is refused as Komga refuses it (KOReader shows the message).
  app.post('/koreader/users/create', async (req, reply) => sendError(reply, req, 403, 'User creation is disabled'));

  app.get('/koreader/users/auth', { onRequest: authenticate }, async (_req, reply) =>
    reply.type(KOREADER_JSON).send({ authorized: 'OK' }),
  );

  app.get<{ Params: { document: string } }>(
    '/koreader/syncs/progress/:document',
    { onRequest: authenticate },
    async (req, reply) => {
      const progress = await koreader.pull(req.user!, req.params.document);
      // Komga's answer, status 200 with an error body: KOReader finds no `percentage` in it and says "No progress
      // found for this document" (a 404 would read as a failed sync).
      if (!progress) return sendError(reply, req, 200, 'No progress found for this book');
      return reply.type(KOREADER_JSON).send(progress);
    },
  );

  app.put<{ Body: Static<typeof ProgressBody> }>(
    '/koreader/syncs/progress',
    { onRequest: authenticate, schema: { body: ProgressBody } },
    async (req, reply) => {
      await koreader.push(req.user!, { ...req.body, progress: String(req.body.progress) });
      // 200 without a body, as Komga answers: typed JSON, an empty body would fail KOReader's decoding.
      return reply.code(200).send();
    },
  );
};
