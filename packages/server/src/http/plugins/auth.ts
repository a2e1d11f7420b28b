import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { CookieSerializeOptions } from '@fastify/cookie';
import { QuireError } from '../../domain/errors.js';
import type { Role } from '../../domain/user.js';
import { TooManyAttempts } from '../../accounts/login-throttle.js';
import type { Login } from '../../accounts/authenticator.js';
import type { ClientInfo } from '../../accounts/authentication-activity.js';
import type { AppDeps } from '../deps.js';
import { springBoolean } from './binding.js';
import { sendError } from './errors.js';
import {
  authDocument,
  authDocumentLinkHeader,
  MEDIATYPE_OPDS_AUTHENTICATION_JSON,
  OPDS2_PATH,
} from '../mappers/opds2.js';

export const SESSION_COOKIE = 'KOMGA-SESSION';
export const REMEMBER_ME_COOKIE = 'komga-remember-me';
const AUTH_TOKEN_HEADER = 'x-auth-token';

/** What authenticated a request: the first two and Basic are attached by browsers on their own. */
export type Credential = 'session-cookie' | 'remember-me' | 'basic' | 'session-header' | 'api-key';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authentication (api.md §2.2–2.4). For each protected request, in Spring Security's order:
 * 1. the session, from `X-Auth-Token` (raw id) when that header is present, else the `KOMGA-SESSION`
 *    cookie (base64 of the id); a Basic header for another e-mail wins over it;
 * 2. HTTP Basic: opens a session (accounts/sessions.ts), answered as a cookie or, in header mode, as
 *    `X-Auth-Token`; with `remember-me=true|on|yes|1` in the query it also sets the remember-me cookie;
 * 3. `X-API-Key`: stateless;
 * 4. the `komga-remember-me` cookie: opens a session like Basic; an invalid one is cleared.
 * Otherwise 401, with `WWW-Authenticate: Basic realm="Realm"` unless the request says X-Requested-With.
 * A state-changing request authenticated by what a browser sends on its own (cookies, cached Basic) is
 * refused when it comes from another site (see fromAnotherSite). Everything lives in the database: any
 * instance can serve any request.
 */
export const authPlugin = fp<AppDeps>(
  async (app, deps) => {
    const { authenticator } = deps.accounts;
    const contextPath = (await deps.settings.get()).serverContextPath ?? deps.config.contextPath;
    const { path: cookiePath, options: cookieOptions } = sessionCookies(contextPath);
    const oauth2Enabled = deps.config.oauth2.providers.length > 0;

    const writeSession = (req: FastifyRequest, reply: FastifyReply, sessionId: string) => {
      if (headerMode(req)) reply.header('X-Auth-Token', sessionId);
      else reply.setCookie(SESSION_COOKIE, Buffer.from(sessionId, 'utf8').toString('base64'), cookieOptions(req));
    };

    const fail = (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
      if (err instanceof TooManyAttempts) {
        reply.header('Retry-After', String(err.retryAfterSeconds));
        return sendError(reply, req, 429, err.message);
      }
      if (err instanceof QuireError && err.status === 401) return unauthorized(req, reply, contextPath);
      throw err;
    };

    const login = (req: FastifyRequest, reply: FastifyReply, l: Login, credential: Credential) => {
      req.user = l.user;
      req.credential = credential;
      writeSession(req, reply, l.sessionId);
      if (l.rememberMe)
        reply.setCookie(REMEMBER_ME_COOKIE, l.rememberMe.value, {
          ...cookieOptions(req),
          maxAge: l.rememberMe.maxAgeSeconds,
        });
    };

    const refusedAsCrossSite = (req: FastifyRequest, reply: FastifyReply) => {
      if (SAFE_METHODS.has(req.method) || !fromAnotherSite(req)) return false;
      void sendError(reply, req, 403, 'Cross-site request refused');
      return true;
    };

    /**
     * Resolves the caller. `optional` (public routes): a session or remember-me cookie that leads nowhere leaves
     * the caller anonymous; Basic and API keys are checked as anywhere else. Answers 401/403/429 itself.
     */
    const authenticate = async (req: FastifyRequest, reply: FastifyReply, optional: boolean): Promise<void> => {
      if (req.user) return;
      const basic = parseBasic(req.headers.authorization);

      const sessionId = sessionIdOf(req);
      if (sessionId) {
        const user = await authenticator.session(sessionId);
        const sameUser = !basic || (basic !== 'invalid' && basic.email.toLowerCase() === user?.email.toLowerCase());
        if (user && sameUser) {
          const credential = headerMode(req) ? 'session-header' : 'session-cookie';
          if (credential === 'session-cookie' && refusedAsCrossSite(req, reply)) return;
          req.user = user;
          req.credential = credential;
          return;
        }
      }

      if (basic) {
        if (basic === 'invalid') return unauthorized(req, reply, contextPath);
        if (refusedAsCrossSite(req, reply)) return;
        try {
          // Read here, before the query is validated, as Spring's remember-me service reads it before the controller
          // binds it: a value that is no boolean issues no cookie, then fails validation (400).
          const rememberMe = rememberMeRequested(req.query);
          login(
            req,
            reply,
            await authenticator.basic(basic.email, basic.password, clientOf(req), { rememberMe }),
            'basic',
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
          req.credential = 'api-key';
          return;
        } catch (err) {
          return fail(req, reply, err);
        }
      }

      const rememberMe = req.cookies[REMEMBER_ME_COOKIE];
      if (rememberMe) {
        if (refusedAsCrossSite(req, reply)) return;
        const l = await authenticator.rememberMe(rememberMe, clientOf(req));
        if (l) {
          login(req, reply, l, 'remember-me');
          return;
        }
        reply.clearCookie(REMEMBER_ME_COOKIE, { path: cookiePath });
      }

      if (optional) return;
      // With an OAuth2 provider, a browser that opens a protected address goes to the login page (api.md §2.3).
      if (oauth2Enabled && isBrowserNavigation(req)) return reply.redirect(`${contextPath}/login`, 302);
      return unauthorized(req, reply, contextPath);
    };

    const requireRole = (role: Role): onRequestHookHandler =>
      async function requireRoleHook(req, reply) {
        if (!req.user) {
          await authenticate(req, reply, false);
          if (reply.sent || !req.user) return reply;
        }
        if (!req.user.roles.has(role)) return sendError(reply, req, 403, 'Forbidden');
      };

    app.decorateRequest('user', undefined);
    app.decorateRequest('credential', undefined);
    app.decorate('authenticate', async function authenticateHook(req: FastifyRequest, reply: FastifyReply) {
      await authenticate(req, reply, false);
      if (reply.sent) return reply;
    });
    app.decorate('authenticateIfAny', async function authenticateIfAnyHook(req: FastifyRequest, reply: FastifyReply) {
      await authenticate(req, reply, true);
      if (reply.sent) return reply;
    });
    app.decorate('requireRole', requireRole);
  },
  { name: 'quire-auth' },
);

/** Where the session and remember-me cookies live: under the context path, out of scripts' reach. */
export function sessionCookies(contextPath: string) {
  const path = `${contextPath}/`;
  const options = (req: FastifyRequest): CookieSerializeOptions => ({
    path,
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    encode: (v: string) => v,
  });
  return { path, options };
}

const headerMode = (req: FastifyRequest) => req.headers[AUTH_TOKEN_HEADER] !== undefined;

/** The session a request names: `X-Auth-Token` when present, else the session cookie; '' when none. */
export function sessionIdOf(req: FastifyRequest): string {
  if (headerMode(req)) return headerValue(req.headers[AUTH_TOKEN_HEADER]);
  const cookie = req.cookies[SESSION_COOKIE];
  return cookie ? Buffer.from(cookie, 'base64').toString('utf8') : '';
}

/** Where a request comes from, as authentication activity and sessions record it. */
export const clientOf = (req: FastifyRequest): ClientInfo => ({
  ip: req.ip || null,
  userAgent: headerValue(req.headers['user-agent']) || null,
});

/**
 * Whether a request shows that a page of another site sent it (CSRF). `X-Requested-With`, which Komga's web
 * UI and ours send on every call, proves the opposite: a page of another origin can only add a header after a
 * CORS preflight, and Quire grants none. Without it, an `Origin` must be the server's own (as the client sees
 * it: scheme and host, through trusted proxies), and a `Sec-Fetch-Site` must not say cross-site or same-site.
 * A request with none of these headers does not come from a browser page (browsers send `Origin` with every
 * cross-origin POST), so native clients that keep the session cookie, such as Mihon, are not affected.
 */
export function fromAnotherSite(req: FastifyRequest): boolean {
  if (req.headers['x-requested-with'] !== undefined) return false;
  const origin = headerValue(req.headers.origin);
  if (origin) return origin.toLowerCase() !== `${req.protocol}://${req.host}`.toLowerCase();
  const site = headerValue(req.headers['sec-fetch-site']).toLowerCase();
  return site === 'cross-site' || site === 'same-site';
}

const BROWSER_TYPES = /(^|,)\s*(text\/html|application\/xhtml\+xml|image\/[^,;\s]+|text\/plain)\s*(;|,|$)/i;

/**
 * A page the browser opens itself, as Spring's OAuth2 entry point tells one: it accepts HTML, XHTML, an image or
 * plain text (not only any type, `*\/*`), and is no script's call (`X-Requested-With`).
 */
function isBrowserNavigation(req: FastifyRequest): boolean {
  return req.headers['x-requested-with'] === undefined && BROWSER_TYPES.test(headerValue(req.headers.accept));
}

function unauthorized(req: FastifyRequest, reply: FastifyReply, contextPath: string) {
  // OPDS 2 clients learn how to log in from the authentication document, sent in place of the error (api.md §2.3).
  if (isOpds2(req)) {
    const server = `${req.protocol}://${req.host}${contextPath}`;
    return reply
      .code(401)
      .header('WWW-Authenticate', 'Basic realm="Realm"')
      .header('Link', authDocumentLinkHeader(server))
      .type(MEDIATYPE_OPDS_AUTHENTICATION_JSON)
      .send(authDocument(server));
  }
  if (req.headers['x-requested-with'] === undefined) reply.header('WWW-Authenticate', 'Basic realm="Realm"');
  return sendError(reply, req, 401, 'Unauthorized');
}

/** A request under `/opds/v2/` (the context path is already stripped: app.ts). */
const isOpds2 = (req: FastifyRequest) => req.url === OPDS2_PATH || req.url.startsWith(`${OPDS2_PATH}/`);

export function headerValue(v: string | string[] | undefined): string {
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

function rememberMeRequested(query: unknown): boolean {
  const value = (query as Record<string, string | string[] | undefined> | undefined)?.['remember-me'];
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && springBoolean(first) === true;
}
