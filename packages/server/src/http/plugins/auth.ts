import fp from 'fastify-plugin';
import { Type } from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { QuireError } from '../../domain/errors.js';
import type { Role } from '../../domain/user.js';
import { TooManyAttempts } from '../../accounts/login-throttle.js';
import type { Login } from '../../accounts/authenticator.js';
import type { ClientInfo } from '../../accounts/authentication-activity.js';
import type { AppDeps } from '../deps.js';
import { sendError } from './errors.js';

export const SESSION_COOKIE = 'KOMGA-SESSION';
export const REMEMBER_ME_COOKIE = 'komga-remember-me';
const AUTH_TOKEN_HEADER = 'x-auth-token';

/**
 * Authentication (api.md §2.2–2.4). For each protected request, in Spring Security's order:
 * 1. the session, from `X-Auth-Token` (raw id) when that header is present, else the `KOMGA-SESSION`
 *    cookie (base64 of the id); a Basic header for another e-mail wins over it;
 * 2. HTTP Basic: opens a session, answered as a cookie or, in header mode, as `X-Auth-Token`; with
 *    `remember-me=true|on|yes|1` in the query it also sets the remember-me cookie;
 * 3. `X-API-Key`: stateless;
 * 4. the `komga-remember-me` cookie: opens a session like Basic; an invalid one is cleared.
 * Otherwise 401, with `WWW-Authenticate: Basic realm="Realm"` unless the request says X-Requested-With.
 * Everything lives in the database: any instance can serve any request.
 */
export const authPlugin = fp<AppDeps>(
  async (app, deps) => {
    const { authenticator } = deps.accounts;
    const contextPath = (await deps.settings.get()).serverContextPath ?? deps.config.contextPath;
    const cookiePath = `${contextPath}/`;

    const cookieOptions = (req: FastifyRequest): CookieSerializeOptions => ({
      path: cookiePath,
      httpOnly: true,
      sameSite: 'lax',
      secure: req.protocol === 'https',
      encode: (v: string) => v,
    });

    const headerMode = (req: FastifyRequest) => req.headers[AUTH_TOKEN_HEADER] !== undefined;

    const sessionIdOf = (req: FastifyRequest): string => {
      if (headerMode(req)) return headerValue(req.headers[AUTH_TOKEN_HEADER]);
      const cookie = req.cookies[SESSION_COOKIE];
      return cookie ? Buffer.from(cookie, 'base64').toString('utf8') : '';
    };

    const writeSession = (req: FastifyRequest, reply: FastifyReply, sessionId: string) => {
      if (headerMode(req)) reply.header('X-Auth-Token', sessionId);
      else reply.setCookie(SESSION_COOKIE, Buffer.from(sessionId, 'utf8').toString('base64'), cookieOptions(req));
    };

    const clientOf = (req: FastifyRequest): ClientInfo => ({
      ip: req.ip || null,
      userAgent: headerValue(req.headers['user-agent']) || null,
    });

    const fail = (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
      if (err instanceof TooManyAttempts) {
        reply.header('Retry-After', String(err.retryAfterSeconds));
        return sendError(reply, req, 429, err.message);
      }
      if (err instanceof QuireError && err.status === 401) return unauthorized(req, reply);
      throw err;
    };

    const login = (req: FastifyRequest, reply: FastifyReply, l: Login) => {
      req.user = l.user;
      writeSession(req, reply, l.sessionId);
      if (l.rememberMe)
        reply.setCookie(REMEMBER_ME_COOKIE, l.rememberMe.value, {
          ...cookieOptions(req),
          maxAge: l.rememberMe.maxAgeSeconds,
        });
    };

    const authenticate = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      if (req.user) return;
      const basic = parseBasic(req.headers.authorization);

      const sessionId = sessionIdOf(req);
      if (sessionId) {
        const user = await authenticator.session(sessionId);
        const sameUser = !basic || (basic !== 'invalid' && basic.email.toLowerCase() === user?.email.toLowerCase());
        if (user && sameUser) {
          req.user = user;
          return;
        }
      }

      if (basic) {
        if (basic === 'invalid') return unauthorized(req, reply);
        try {
          login(
            req,
            reply,
            await authenticator.basic(basic.email, basic.password, clientOf(req), {
              rememberMe: isTrue((req.query as Record<string, unknown> | undefined)?.['remember-me']),
            }),
          );
          return;
        } catch (err) {
          return fail(req, reply, err);
        }
      }

      const apiKey = req.headers['x-api-key'];
      if (apiKey !== undefined) {
        try {
          req.user = await authenticator.apiKey(headerValue(apiKey), clientOf(req));
          return;
        } catch (err) {
          return fail(req, reply, err);
        }
      }

      const rememberMe = req.cookies[REMEMBER_ME_COOKIE];
      if (rememberMe) {
        const l = await authenticator.rememberMe(rememberMe, clientOf(req));
        if (l) {
          login(req, reply, l);
          return;
        }
        reply.clearCookie(REMEMBER_ME_COOKIE, { path: cookiePath });
      }

      return unauthorized(req, reply);
    };

    const requireRole = (role: Role): onRequestHookHandler =>
      async function requireRoleHook(req, reply) {
        if (!req.user) {
          await authenticate(req, reply);
          if (reply.sent || !req.user) return reply;
        }
        if (!req.user.roles.has(role)) return sendError(reply, req, 403, 'Forbidden');
      };

    app.decorateRequest('user', undefined);
    app.decorate('authenticate', async function authenticateHook(req: FastifyRequest, reply: FastifyReply) {
      await authenticate(req, reply);
      if (reply.sent) return reply;
    });
    app.decorate('requireRole', requireRole);

    registerLoginRoutes(app, deps, { cookiePath, contextPath, sessionIdOf, cookieOptions });
  },
  { name: 'quire-auth' },
);

/** Logout (any method, no authentication needed) and set-cookie (api.md §2.4). */
function registerLoginRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  h: {
    cookiePath: string;
    contextPath: string;
    sessionIdOf(req: FastifyRequest): string;
    cookieOptions(req: FastifyRequest): CookieSerializeOptions;
  },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const noContent = { 204: Type.Null({ description: 'No Content' }) };

  r.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: '/api/logout',
    schema: {
      response: {
        ...noContent,
        302: Type.Null({ description: 'Browser navigation: redirect to the login page' }),
      },
    },
    handler: async (req, reply) => {
      await deps.accounts.authenticator.closeSession(h.sessionIdOf(req));
      reply.clearCookie(SESSION_COOKIE, { path: h.cookiePath });
      reply.clearCookie(REMEMBER_ME_COOKIE, { path: h.cookiePath });
      const accept = headerValue(req.headers.accept);
      if (req.headers['x-requested-with'] !== undefined || accept.includes('json')) return reply.code(204).send(null);
      return reply.redirect(`${h.contextPath}/login?logout`, 302);
    },
  });

  r.get(
    '/api/v1/login/set-cookie',
    { schema: { response: noContent }, onRequest: app.authenticate },
    async (req, reply) => {
      const user = req.user!;
      const sessionId = user.sessionId ?? (await deps.accounts.authenticator.openSession(user));
      reply.setCookie(SESSION_COOKIE, Buffer.from(sessionId, 'utf8').toString('base64'), h.cookieOptions(req));
      return reply.code(204).send(null);
    },
  );
}

function unauthorized(req: FastifyRequest, reply: FastifyReply) {
  if (req.headers['x-requested-with'] === undefined) reply.header('WWW-Authenticate', 'Basic realm="Realm"');
  return sendError(reply, req, 401, 'Unauthorized');
}

function headerValue(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** `Basic base64(email:password)`; 'invalid' when it is Basic but not decodable. */
function parseBasic(header: string | undefined): { email: string; password: string } | 'invalid' | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'invalid';
  return { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const isTrue = (v: unknown) => typeof v === 'string' && ['true', 'on', 'yes', '1'].includes(v.toLowerCase());
