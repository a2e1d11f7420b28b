import type { Operations, userSessionOperations } from '@quire/api/operations';
import type { Authenticator } from '../../accounts/authenticator.js';
import {
  clientOf,
  fromAnotherSite,
  headerValue,
  REMEMBER_ME_COOKIE,
  SESSION_COOKIE,
  sessionCookies,
  sessionIdOf,
} from '../plugins/auth.js';
import { sendError } from '../plugins/errors.js';
import type { HandlerFunction, Handlers, OperationIdsOf } from '../operations.js';

export interface UserSessionRouteDeps {
  authenticator: Pick<Authenticator, 'logout' | 'openSession'>;
  /** The context path this process serves: the cookies' path and the login page's address. */
  contextPath: string;
}

/**
 * Logout (any of four methods, no authentication needed) and set-cookie (api.md §2.4). Logout ends the session and
 * this browser's remember-me token; a page of another site may not do it (it could otherwise log anyone out).
 */
export function userSessionHandlers({
  authenticator,
  contextPath,
}: UserSessionRouteDeps): Handlers<OperationIdsOf<typeof userSessionOperations>> {
  const cookies = sessionCookies(contextPath);
  const logout: HandlerFunction<Operations['postLogout']> = async (req, reply) => {
    if (fromAnotherSite(req)) return sendError(reply, req, 403, 'Cross-site request refused');
    await authenticator.logout(sessionIdOf(req), req.cookies[REMEMBER_ME_COOKIE] ?? '');
    reply.clearCookie(SESSION_COOKIE, { path: cookies.path });
    reply.clearCookie(REMEMBER_ME_COOKIE, { path: cookies.path });
    const accept = headerValue(req.headers.accept);
    if (req.headers['x-requested-with'] !== undefined || accept.includes('json')) return reply.code(204).send(null);
    return reply.redirect(`${contextPath}/login?logout`, 302);
  };
  return {
    postLogout: logout,
    postLogout_1: (req, reply) => logout(req, reply),
    putLogout: (req, reply) => logout(req, reply),
    deleteLogout: (req, reply) => logout(req, reply),
    convertHeaderSessionToCookie: async (req, reply) => {
      const sessionId = req.user.sessionId ?? (await authenticator.openSession(req.user, clientOf(req)));
      reply.setCookie(SESSION_COOKIE, Buffer.from(sessionId, 'utf8').toString('base64'), cookies.options(req));
      return reply.code(204).send(null);
    },
  };
}
