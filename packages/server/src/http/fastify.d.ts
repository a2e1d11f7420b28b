import type { onRequestHookHandler } from 'fastify';
import type { CurrentUser, Role } from '../domain/user.js';
import type { Credential } from './plugins/auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's path as the operation table writes it (`{bookId}`), for the OpenAPI document. */
    openapiPath?: string;
    /** The request body of the OpenAPI document when the server does not validate it (multipart uploads). */
    openapiBody?: unknown;
    /** The operation's body is optional: an empty JSON body is no body, as Spring reads it. */
    optionalBody?: boolean;
  }
  interface FastifyInstance {
    /** onRequest hook: resolves the caller from session, remember-me, Basic or API key; 401 when none. */
    authenticate: onRequestHookHandler;
    /**
     * onRequest hook of public routes: like `authenticate` when the request carries credentials, except that a
     * session or remember-me cookie the server does not know leaves the caller anonymous instead of 401.
     */
    authenticateIfAny: onRequestHookHandler;
    /** onRequest hook: like `authenticate`, then 403 unless the caller has the role. */
    requireRole(role: Role): onRequestHookHandler;
  }
  interface FastifyRequest {
    /** Set by `authenticate`; absent on public routes. */
    user?: CurrentUser;
    /** How `user` was authenticated. */
    credential?: Credential;
  }
}
