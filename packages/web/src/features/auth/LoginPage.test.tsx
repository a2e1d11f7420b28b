import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { jsonResponse, renderScreen } from '../../test/render';
import { buildAdmin } from '../../test/fixtures';
import { resetPreferences } from '../../app/preferences';
import { oauth2Queries } from '../../api/oauth2';

/** The login page's OAuth2 queries, answered: `providers` and the two global settings. */
const oauth2Seed = (
  providers: { name: string; registrationId: string }[] = [],
  settings = { hideLogin: false, autoLogin: false },
): [readonly unknown[], unknown][] => [
  [oauth2Queries.providers().queryKey, providers],
  [oauth2Queries.loginSettings().queryKey, settings],
];

afterEach(() => {
  vi.unstubAllGlobals();
  resetPreferences();
});

/**
 * The server of a sign-in or a claim: the user for the claim and for `users/me`, no libraries, and 404 for the rest
 * (the layout's other queries, e.g. /actuator/info, which a user object would break: its `build` is read).
 */
const signInFetch = () =>
  vi.fn(async (url: string) => {
    if (url.startsWith('/api/v1/libraries')) return jsonResponse(200, []);
    if (url.startsWith('/api/v1/claim') || url.startsWith('/api/v2/users/me')) return jsonResponse(200, buildAdmin());
    return jsonResponse(404, { status: 404, message: 'Not Found' });
  });

describe('login page', () => {
  it('marks empty fields as Required and sends nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user } = renderScreen(null, {
      user: null,
      claim: { isClaimed: true },
      route: '/login',
      seed: oauth2Seed(),
    });
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(screen.getAllByText('Required')).toHaveLength(2);
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('rejects an address without a domain', async () => {
    const { user } = renderScreen(null, {
      user: null,
      claim: { isClaimed: true },
      route: '/login',
      seed: oauth2Seed(),
    });
    await user.type(await screen.findByLabelText('Email'), 'nobody');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Must be a valid email address')).toBeInTheDocument();
  });

  it('shows Invalid authentication with the server detail on 401', async () => {
    const fetch = vi.fn(async () => jsonResponse(401, { status: 401, message: 'Bad credentials' }));
    vi.stubGlobal('fetch', fetch);
    const { user } = renderScreen(null, {
      user: null,
      claim: { isClaimed: true },
      route: '/login',
      seed: oauth2Seed(),
    });
    await user.type(await screen.findByLabelText('Email'), 'admin@example.org');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid authentication: Bad credentials');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v2/users/me?remember-me=false');
    expect(new Headers(init.headers).get('Authorization')).toBe(`Basic ${btoa('admin@example.org:wrong')}`);
  });

  it('logs in with remember me and goes to the redirect target', async () => {
    const fetch = signInFetch();
    vi.stubGlobal('fetch', fetch);
    const { user, location } = renderScreen(null, {
      user: null,
      claim: { isClaimed: true },
      libraries: [],
      route: `/login?redirect=${encodeURIComponent('/welcome?x=1')}`,
      seed: oauth2Seed(),
    });
    await user.type(await screen.findByLabelText('Email'), 'admin@example.org');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(location()).toBe('/welcome?x=1'));
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe('/api/v2/users/me?remember-me=true');
  });

  it('creates the first account when the server is unclaimed', async () => {
    const fetch = signInFetch();
    vi.stubGlobal('fetch', fetch);
    const { user, location } = renderScreen(null, {
      user: null,
      claim: { isClaimed: false },
      libraries: [],
      route: '/login',
      seed: oauth2Seed(),
    });
    await user.type(await screen.findByLabelText('Email'), 'admin@example.org');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(location()).toBe('/welcome'));
    const [claimUrl, claimInit] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(claimUrl).toBe('/api/v1/claim');
    expect(claimInit.method).toBe('POST');
    expect(new Headers(claimInit.headers).get('X-Komga-Email')).toBe('admin@example.org');
    expect((fetch.mock.calls[1] as unknown as [string])[0]).toBe('/api/v2/users/me?remember-me=false');
  });

  describe('OAuth2', () => {
    const keycloak = { name: 'Keycloak', registrationId: 'keycloak' };

    it('offers one button per provider beside the fields; a button opens the provider in the oauth2Login popup', async () => {
      const open = vi.fn();
      vi.stubGlobal('open', open);
      const { user } = renderScreen(null, {
        user: null,
        claim: { isClaimed: true },
        route: '/login',
        seed: oauth2Seed([keycloak, { name: 'Google', registrationId: 'google' }]),
      });
      await user.click(await screen.findByRole('button', { name: 'Sign in with Keycloak' }));
      expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toBeInTheDocument();
      expect(open).toHaveBeenCalledTimes(1);
      const [url, name, features] = open.mock.calls[0] as [string, string, string];
      expect([url, name]).toEqual(['/oauth2/authorization/keycloak', 'oauth2Login']);
      expect(features).toMatch(/width=600,height=600/);
    });

    it('hides the fields with webui.oauth2.hide_login, and auto-login opens the only provider at once', async () => {
      const open = vi.fn();
      vi.stubGlobal('open', open);
      renderScreen(null, {
        user: null,
        claim: { isClaimed: true },
        route: '/login',
        seed: oauth2Seed([keycloak], { hideLogin: true, autoLogin: true }),
      });
      expect(await screen.findByRole('button', { name: 'Sign in with Keycloak' })).toBeInTheDocument();
      expect(screen.queryByLabelText('Email')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Log in' })).toBeNull();
      await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
      expect(open.mock.calls[0]![0]).toBe('/oauth2/authorization/keycloak');
    });

    it('shows no field while the settings are on their way, when hide_login will hide them', async () => {
      const open = vi.fn();
      vi.stubGlobal('open', open);
      let answerSettings = () => {};
      const settingsAnswered = new Promise<void>((resolve) => (answerSettings = resolve));
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string) => {
          if (url.startsWith('/api/v1/oauth2/providers')) return jsonResponse(200, [keycloak]);
          if (url.startsWith('/api/v1/client-settings/global/list')) {
            await settingsAnswered;
            return jsonResponse(200, { 'webui.oauth2.hide_login': { value: 'true' } });
          }
          return jsonResponse(404, { status: 404, message: 'Not Found' });
        }),
      );
      renderScreen(null, { user: null, claim: { isClaimed: true }, route: '/login?logout=true' });
      // the providers have answered, the settings not yet: the form waits (before, the fields showed, then went)
      await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/v1/oauth2/providers', expect.anything()));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(screen.queryByLabelText('Email')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Sign in with Keycloak' })).toBeNull();
      expect(document.querySelector('form')).toHaveAttribute('aria-busy', 'true');
      answerSettings();
      expect(await screen.findByRole('button', { name: 'Sign in with Keycloak' })).toBeInTheDocument();
      expect(screen.queryByLabelText('Email')).toBeNull();
      expect(document.querySelector('form')).toHaveAttribute('aria-busy', 'false');
    });

    it('does not auto-login after a failure, and shows the error translated', async () => {
      const open = vi.fn();
      vi.stubGlobal('open', open);
      renderScreen(null, {
        user: null,
        claim: { isClaimed: true },
        route: '/login?server_redirect=Y&error=ERR_1025',
        seed: oauth2Seed([keycloak], { hideLogin: true, autoLogin: true }),
      });
      expect(await screen.findByRole('alert')).toHaveTextContent('OAuth2 login: no local user exists with that email');
      expect(open).not.toHaveBeenCalled();
    });

    it('says clearly that a provider is down', async () => {
      renderScreen(null, {
        user: null,
        claim: { isClaimed: true },
        route: `/login?server_redirect=Y&error=${encodeURIComponent('The OAuth2 provider could not be reached')}`,
        seed: oauth2Seed([keycloak]),
      });
      expect(await screen.findByRole('alert')).toHaveTextContent('The sign-in provider could not be reached');
    });
  });
});
