import { queryOptions, useQuery } from '@tanstack/react-query';
import { basePath, client } from './client';

/** Global client settings the login page reads before anyone is logged in (ui.md §13.3; readable anonymously). */
export const HIDE_LOGIN_SETTING = 'webui.oauth2.hide_login';
export const AUTO_LOGIN_SETTING = 'webui.oauth2.auto_login';

export const oauth2Queries = {
  providers: () =>
    queryOptions({
      queryKey: ['oauth2', 'providers'] as const,
      queryFn: () => client.get('/api/v1/oauth2/providers'),
      staleTime: Infinity,
      retry: false,
    }),
  /** `hideLogin` and `autoLogin`, from the global client settings an anonymous caller may read. */
  loginSettings: () =>
    queryOptions({
      queryKey: ['oauth2', 'login-settings'] as const,
      queryFn: async () => {
        const settings = await client.get('/api/v1/client-settings/global/list');
        return {
          hideLogin: settings[HIDE_LOGIN_SETTING]?.value === 'true',
          autoLogin: settings[AUTO_LOGIN_SETTING]?.value === 'true',
        };
      },
      retry: false,
    }),
};

export const useOAuth2Providers = () => useQuery(oauth2Queries.providers());
export const useOAuth2LoginSettings = () => useQuery(oauth2Queries.loginSettings());

/** Where the server starts a provider's login (Spring's path, served outside the API). */
export const authorizationUrl = (registrationId: string) =>
  `${basePath()}/oauth2/authorization/${encodeURIComponent(registrationId)}`;
