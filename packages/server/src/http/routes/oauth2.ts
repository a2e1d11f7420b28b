import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { oauth2Operations } from '@quire/api/operations';
import type { OAuth2Login } from '../../accounts/oauth2-login.js';
import { OAuth2LoginFailure } from '../../accounts/oauth2-login.js';
import { OAUTH2_REQUEST_TTL_MS } from '../../accounts/oauth2-login.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { clientOf, SESSION_COOKIE, sessionCookies } from '../plugins/auth.js';

/** Ties the provider's callback to the browser that started the login (accounts/oauth2-login.ts). */
export const OAUTH2_FLOW_COOKIE = 'QUIRE-OAUTH2';

/** The OAuth2/OIDC providers the login page offers (api.md §2.7): public, from the configuration. */
export function oauth2Handlers({
  oauth2,
}: {
  oauth2: Pick<OAuth2Login, 'providers'>;
}): Handlers<OperationIdsOf<typeof oauth2Operations>> {
  return { getOAuth2Providers: async () => oauth2.providers() };
}

export interface OAuth2RouteDeps {
  oauth2: Pick<OAuth2Login, 'provider' | 'start' | 'finish'>;
  /** QUIRE_BASE_URL: redirect URIs are built from it, never from the request's Host (required by config with providers). */
  baseUrl: string | undefined;
  contextPath: string;
}

/**
 * The browser side of the OAuth2 login (api.md §2.7), Spring's URLs: `/oauth2/authorization/{id}` sends the browser
 * to the provider, `/login/oauth2/code/{id}` is where the provider sends it back. Success opens a session (the
 * `KOMGA-SESSION` cookie, as a password login) and goes to `{ctx}/?server_redirect=Y`; any failure goes to
 * `{ctx}/login?server_redirect=Y&error=<ERR_xxxx or message>`, where the login page shows it. Neither is an API
 * operation of Komga's document, so they are plain routes.
 */
export const oauth2Routes: FastifyPluginAsync<OAuth2RouteDeps> = async (app, { oauth2, baseUrl, contextPath }) => {
  const { options: cookieOptions } = sessionCookies(contextPath);
  const flowCookiePath = `${contextPath}/login/oauth2/code/`;
  const redirectUri = (registrationId: string) => `${baseUrl}/login/oauth2/code/${encodeURIComponent(registrationId)}`;
  const toLoginPage = (reply: FastifyReply, reason: string) =>
    reply.redirect(`${contextPath}/login?server_redirect=Y&error=${encodeURIComponent(reason)}`, 302);

  app.get<{ Params: { registrationId: string } }>('/oauth2/authorization/:registrationId', async (req, reply) => {
    const provider = oauth2.provider(req.params.registrationId);
    if (!provider || !baseUrl) return toLoginPage(reply, `Unknown OAuth2 provider: ${req.params.registrationId}`);
    try {
      const { url, browserKey } = await oauth2.start(provider, redirectUri(provider.registrationId));
      reply.setCookie(OAUTH2_FLOW_COOKIE, browserKey, {
        ...cookieOptions(req),
        path: flowCookiePath,
        maxAge: OAUTH2_REQUEST_TTL_MS / 1000,
      });
      return reply.redirect(url, 302);
    } catch (err) {
      if (err instanceof OAuth2LoginFailure) return toLoginPage(reply, err.reason);
      throw err;
    }
  });

  app.get(
    '/login/oauth2/code/:registrationId',
    async (req: FastifyRequest<{ Params: { registrationId: string } }>, reply) => {
      const provider = oauth2.provider(req.params.registrationId);
      if (!provider || !baseUrl) return toLoginPage(reply, `Unknown OAuth2 provider: ${req.params.registrationId}`);
      const browserKey = req.cookies[OAUTH2_FLOW_COOKIE] ?? '';
      reply.clearCookie(OAUTH2_FLOW_COOKIE, { path: flowCookiePath });
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      try {
        const login = await oauth2.finish(
          provider,
          browserKey,
          redirectUri(provider.registrationId),
          query,
          clientOf(req),
        );
        reply.setCookie(SESSION_COOKIE, Buffer.from(login.sessionId, 'utf8').toString('base64'), cookieOptions(req));
        return reply.redirect(`${contextPath}/?server_redirect=Y`, 302);
      } catch (err) {
        if (err instanceof OAuth2LoginFailure) return toLoginPage(reply, err.reason);
        throw err;
      }
    },
  );
};
