import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { logInAtProvider, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.js';

/**
 * Quire's public address as the provider knows it. Deliberately not the test server's own: the provider's redirect is
 * replayed against the server by path, which shows that redirect URIs come from QUIRE_BASE_URL, not from Host.
 */
const BASE_URL = 'http://quire.example.test:8080';
const REDIRECT_URI = `${BASE_URL}/login/oauth2/code/test`;

const accounts = {
  alice: { email: 'Alice@Example.org', email_verified: true },
  newcomer: { email: 'newcomer@example.org', email_verified: true },
  unverified: { email: 'admin@example.org', email_verified: false },
  silent: { email: 'admin@example.org' },
};

const providerEnv = (issuer: string, extra: Record<string, string> = {}) => ({
  QUIRE_BASE_URL: BASE_URL,
  QUIRE_OAUTH2_TEST_ISSUER: issuer,
  QUIRE_OAUTH2_TEST_CLIENT_ID: 'quire-test',
  QUIRE_OAUTH2_TEST_CLIENT_SECRET: 'quire-test-secret-that-is-long-enough',
  QUIRE_OAUTH2_TEST_NAME: 'Test IdP',
  ...extra,
});

/** Where the server sends a browser: the Location of a 302, and the cookies it sets. */
async function redirectOf(res: Response) {
  expect(res.status).toBe(302);
  return { location: res.headers.get('location')!, cookies: res.headers.getSetCookie() };
}

const cookieHeader = (setCookies: string[]) => setCookies.map((c) => c.split(';')[0]).join('; ');

/** The whole login as a browser does it; returns the server's last redirect and cookies. */
async function oauth2Login(s: TestServer, login: string, tamper?: (callback: URL) => void) {
  const start = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
  const callback = await logInAtProvider(start.location, login);
  expect(callback.href.startsWith(REDIRECT_URI)).toBe(true);
  tamper?.(callback);
  return redirectOf(
    await s.fetch(`${callback.pathname}${callback.search}`, {
      redirect: 'manual',
      headers: { cookie: cookieHeader(start.cookies) },
    }),
  );
}

const loginError = (location: string) => {
  const url = new URL(location, 'http://x');
  expect(url.pathname).toBe('/login');
  expect(url.searchParams.get('server_redirect')).toBe('Y');
  return url.searchParams.get('error');
};

async function activity(s: TestServer, admin: string) {
  const res = await s.fetch('/api/v2/users/authentication-activity?sort=dateTime,desc', {
    headers: { authorization: admin },
  });
  return ((await res.json()) as { content: { email: string; source: string; success: boolean; error: string }[] })
    .content;
}

describe('OAuth2 / OpenID Connect login against a real provider', () => {
  let provider: TestOidcProvider;
  let s: TestServer | undefined;
  beforeAll(async () => {
    provider = await startOidcProvider({
      redirectUris: [REDIRECT_URI, `${BASE_URL}/quire/login/oauth2/code/test`],
      accounts,
    });
  });
  afterAll(() => provider.close());
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('lists the configured provider, publicly', async () => {
    s = await startServer(providerEnv(provider.issuer));
    const res = await s.fetch('/api/v1/oauth2/providers');
    expect(await res.json()).toEqual([{ name: 'Test IdP', registrationId: 'test' }]);
  });

  it('logs an existing user in by e-mail, case-insensitively, with PKCE, state and nonce', async () => {
    s = await startServer(providerEnv(provider.issuer));
    const admin = await claim(s);
    await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin.authorization },
      json: { email: 'alice@example.org', password: 'alice-password' },
    });
    const start = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
    const authorization = new URL(start.location);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['state', 'nonce', 'code_challenge']) expect(authorization.searchParams.get(p)).toBeTruthy();
    // The flow's secrets are in the database, not in the server's memory.
    expect(await s.app.deps.db.selectFrom('oauth2_request').selectAll().execute()).toHaveLength(1);

    const callback = await logInAtProvider(start.location, 'alice');
    const done = await redirectOf(
      await s.fetch(`${callback.pathname}${callback.search}`, {
        redirect: 'manual',
        headers: { cookie: cookieHeader(start.cookies) },
      }),
    );
    expect(done.location).toBe('/?server_redirect=Y');
    const session = done.cookies.find((c) => c.startsWith('KOMGA-SESSION='));
    expect(session).toMatch(/HttpOnly/i);
    const me = await s.fetch('/api/v2/users/me', { headers: { cookie: cookieHeader([session!]) } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('alice@example.org');
    const latest = (await activity(s, admin.authorization)).find((a) => a.source.startsWith('OAuth2'));
    expect(latest).toMatchObject({ email: 'alice@example.org', source: 'OAuth2:Test IdP', success: true });
    expect(await s.app.deps.db.selectFrom('oauth2_request').selectAll().execute()).toHaveLength(0);
  });

  it('a login started on one instance is finished by another sharing the database', async () => {
    s = await startServer(providerEnv(provider.issuer));
    await claim(s);
    const other = await startServer({
      ...providerEnv(provider.issuer, { QUIRE_OIDC_EMAIL_VERIFICATION: 'false' }),
      QUIRE_DATA_DIR: s.dataDir,
    });
    try {
      const start = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
      const callback = await logInAtProvider(start.location, 'unverified');
      const done = await redirectOf(
        await other.fetch(`${callback.pathname}${callback.search}`, {
          redirect: 'manual',
          headers: { cookie: cookieHeader(start.cookies) },
        }),
      );
      expect(done.location).toBe('/?server_redirect=Y');
      // And the session it opened is known to the first instance.
      const session = cookieHeader(done.cookies.filter((c) => c.startsWith('KOMGA-SESSION=')));
      expect((await s.fetch('/api/v2/users/me', { headers: { cookie: session } })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('refuses someone without an account (ERR_1025), and creates one when account creation is on', async () => {
    s = await startServer(providerEnv(provider.issuer));
    const admin = await claim(s);
    expect(loginError((await oauth2Login(s, 'newcomer')).location)).toBe('ERR_1025');
    expect((await activity(s, admin.authorization)).find((a) => a.source.startsWith('OAuth2'))).toMatchObject({
      email: 'newcomer@example.org',
      source: 'OAuth2:Test IdP',
      success: false,
      error: 'ERR_1025',
    });
    await s.close();

    s = await startServer(providerEnv(provider.issuer, { QUIRE_OAUTH2_ACCOUNT_CREATION: 'true' }));
    const admin2 = await claim(s);
    const done = await oauth2Login(s, 'newcomer');
    expect(done.location).toBe('/?server_redirect=Y');
    const users = (await (
      await s.fetch('/api/v2/users', { headers: { authorization: admin2.authorization } })
    ).json()) as {
      email: string;
      roles: string[];
    }[];
    expect(users.find((u) => u.email === 'newcomer@example.org')?.roles.sort()).toEqual([
      'FILE_DOWNLOAD',
      'PAGE_STREAMING',
      'USER',
    ]);
  });

  it('refuses an unverified e-mail (ERR_1026), a missing email_verified (ERR_1027) and no e-mail (ERR_1028)', async () => {
    s = await startServer(providerEnv(provider.issuer));
    await claim(s);
    expect(loginError((await oauth2Login(s, 'unverified')).location)).toBe('ERR_1026');
    expect(loginError((await oauth2Login(s, 'silent')).location)).toBe('ERR_1027');
    expect(loginError((await oauth2Login(s, 'nobody')).location)).toBe('ERR_1028');
  });

  it('accepts an unverified e-mail when QUIRE_OIDC_EMAIL_VERIFICATION is false', async () => {
    s = await startServer(providerEnv(provider.issuer, { QUIRE_OIDC_EMAIL_VERIFICATION: 'false' }));
    await claim(s);
    expect((await oauth2Login(s, 'unverified')).location).toBe('/?server_redirect=Y');
  });

  it('refuses a callback whose state was changed, or that comes without the browser that started it', async () => {
    s = await startServer(providerEnv(provider.issuer));
    const admin = await claim(s);
    const tampered = await oauth2Login(s, 'alice', (callback) => callback.searchParams.set('state', 'forged'));
    expect(loginError(tampered.location)).toMatch(/state/i);
    expect(tampered.cookies.some((c) => c.startsWith('KOMGA-SESSION='))).toBe(false);

    const start = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
    const callback = await logInAtProvider(start.location, 'alice');
    const withoutCookie = await redirectOf(
      await s.fetch(`${callback.pathname}${callback.search}`, { redirect: 'manual' }),
    );
    expect(loginError(withoutCookie.location)).toMatch(/no OAuth2 login was started/i);
    const oauth2Rows = (await activity(s, admin.authorization)).filter((a) => a.source.startsWith('OAuth2'));
    expect(oauth2Rows.map((a) => [a.source, a.success])).toEqual([
      ['OAuth2:Test IdP', false],
      ['OAuth2:Test IdP', false],
    ]);
    // The admin's Basic login still works: nothing above logged anyone in.
    expect(
      (await s.fetch('/api/v2/users/me', { headers: { authorization: basic(admin.email, admin.password) } })).status,
    ).toBe(200);
  });

  it('refuses a provider whose discovery names another issuer', async () => {
    const impostor = await startOidcProvider({ redirectUris: [REDIRECT_URI], accounts, issuerHost: 'localhost' });
    try {
      s = await startServer(providerEnv(`http://127.0.0.1:${impostor.port}`));
      const res = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
      expect(loginError(res.location)).toMatch(/issuer/i);
    } finally {
      await impostor.close();
    }
  });

  it('under a context path: redirect URI from QUIRE_BASE_URL, login page and app root under the path', async () => {
    s = await startServer({
      ...providerEnv(provider.issuer),
      QUIRE_BASE_URL: `${BASE_URL}/quire`,
      QUIRE_CONTEXT_PATH: '/quire',
    });
    await claim(s);
    const start = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
    expect(new URL(start.location).searchParams.get('redirect_uri')).toBe(`${BASE_URL}/quire/login/oauth2/code/test`);
    expect(start.cookies.find((c) => c.startsWith('QUIRE-OAUTH2='))).toMatch(/Path=\/quire\/login\/oauth2\/code\//);
    const callback = await logInAtProvider(start.location, 'unverified');
    // The test server's URL ends with the context path; the callback's path starts with it.
    const done = await redirectOf(
      await fetch(`${new URL(s.url).origin}${callback.pathname}${callback.search}`, {
        redirect: 'manual',
        headers: { cookie: cookieHeader(start.cookies) },
      }),
    );
    expect(done.location).toBe('/quire/login?server_redirect=Y&error=ERR_1026');
  });

  it('an unknown provider id goes back to the login page', async () => {
    s = await startServer(providerEnv(provider.issuer));
    const res = await redirectOf(await s.fetch('/oauth2/authorization/nope', { redirect: 'manual' }));
    expect(loginError(res.location)).toMatch(/unknown OAuth2 provider/i);
  });
});

describe('OAuth2 provider down', () => {
  let s: TestServer | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('a provider that refuses connections is a clear error on the login page', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise((r) => closed.close(r));
    s = await startServer(providerEnv(`http://127.0.0.1:${port}`));
    const res = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
    expect(loginError(res.location)).toBe('The OAuth2 provider could not be reached');
  });

  it('a provider that never answers fails after the timeout, not a hang', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    try {
      s = await startServer(providerEnv(`http://127.0.0.1:${port}`, { QUIRE_OAUTH2_TIMEOUT_SECONDS: '1' }));
      const started = Date.now();
      const res = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
      expect(loginError(res.location)).toBe('The OAuth2 provider did not answer in time');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});

describe('OAuth2 configuration', () => {
  it('answers [] when no provider is configured', async () => {
    const s = await startServer();
    try {
      expect(await (await s.fetch('/api/v1/oauth2/providers')).json()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('reads providers from QUIRE_OAUTH2_<ID>_* and refuses what would silently lose one', () => {
    const config = loadConfig(
      providerEnv('https://idp.example.org/realms/x', { QUIRE_OAUTH2_TEST_SCOPES: 'email, groups' }),
    );
    expect(config.oauth2.providers).toEqual([
      {
        kind: 'oidc',
        registrationId: 'test',
        name: 'Test IdP',
        issuer: new URL('https://idp.example.org/realms/x'),
        clientId: 'quire-test',
        clientSecret: 'quire-test-secret-that-is-long-enough',
        scopes: ['openid', 'email', 'groups'],
      },
    ]);
    expect(config.oauth2).toMatchObject({ accountCreation: false, emailVerification: true, timeoutMs: 10_000 });
    expect(() => loadConfig({ ...providerEnv('https://idp.example.org'), QUIRE_BASE_URL: '' })).toThrow(
      /QUIRE_BASE_URL/,
    );
    expect(() =>
      loadConfig({ ...providerEnv('https://idp.example.org'), QUIRE_OAUTH2_TEST_CLIENT_SECRET: '' }),
    ).toThrow(/QUIRE_OAUTH2_TEST_CLIENT_SECRET/);
    expect(() => loadConfig({ ...providerEnv('https://idp.example.org'), QUIRE_OAUTH2_TEST_ISSUR: 'x' })).toThrow(
      /QUIRE_OAUTH2_TEST_ISSUR/,
    );
    expect(() => loadConfig({ QUIRE_OAUTH2_ACCOUNT_CREATION: 'yes please' })).toThrow(/true or false/);
  });
});

describe('unauthenticated browsers with OAuth2 configured (api.md §2.3)', () => {
  it('go to the login page; scripts and API clients still get 401', async () => {
    const s = await startServer(providerEnv('https://idp.example.org'));
    try {
      const page = await s.fetch('/api/v2/users/me', {
        redirect: 'manual',
        headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      });
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toBe('/login');
      const image = await s.fetch('/api/v1/books/x/thumbnail', { redirect: 'manual', headers: { accept: 'image/*' } });
      expect(image.status).toBe(302);
      const script = await s.fetch('/api/v2/users/me', {
        redirect: 'manual',
        headers: { accept: 'text/html', 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(script.status).toBe(401);
      const client = await s.fetch('/api/v2/users/me', { redirect: 'manual', headers: { accept: '*/*' } });
      expect(client.status).toBe(401);
      expect(client.headers.get('www-authenticate')).toBe('Basic realm="Realm"');
    } finally {
      await s.close();
    }
  });

  it('without a provider, a browser gets the 401 as before', async () => {
    const s = await startServer();
    try {
      const page = await s.fetch('/api/v2/users/me', { redirect: 'manual', headers: { accept: 'text/html' } });
      expect(page.status).toBe(401);
    } finally {
      await s.close();
    }
  });
});

describe('plain OAuth2 providers (their endpoints configured, the e-mail from their user-info answer)', () => {
  let provider: TestOidcProvider;
  let s: TestServer | undefined;
  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [REDIRECT_URI], accounts });
  });
  afterAll(() => provider.close());
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  const plainEnv = (): Record<string, string> => {
    const { QUIRE_OAUTH2_TEST_ISSUER: _issuer, ...env } = providerEnv(provider.issuer, {
      QUIRE_OAUTH2_TEST_AUTHORIZATION_URI: `${provider.issuer}/auth`,
      QUIRE_OAUTH2_TEST_TOKEN_URI: `${provider.issuer}/token`,
      QUIRE_OAUTH2_TEST_USER_INFO_URI: `${provider.issuer}/me`,
      // oidc-provider answers its user-info endpoint only to the openid scope.
      QUIRE_OAUTH2_TEST_SCOPES: 'openid email',
    });
    return env;
  };

  it('logs a user in by the e-mail of the user-info answer; without one, ERR_1024', async () => {
    s = await startServer(plainEnv());
    await claim(s);
    await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: basic('admin@example.org', 'admin-secret') },
      json: { email: 'alice@example.org', password: 'alice-password' },
    });
    const start = await redirectOf(await s.fetch('/oauth2/authorization/test', { redirect: 'manual' }));
    expect(new URL(start.location).searchParams.has('nonce')).toBe(false);
    expect((await oauth2Login(s, 'alice')).location).toBe('/?server_redirect=Y');
    expect(loginError((await oauth2Login(s, 'nobody')).location)).toBe('ERR_1024');
  });

  it('takes either an issuer or the three endpoints, not both', () => {
    expect(() => loadConfig({ ...plainEnv(), QUIRE_OAUTH2_TEST_ISSUER: provider.issuer })).toThrow(/not both/);
    const { QUIRE_OAUTH2_TEST_TOKEN_URI: _token, ...missing } = plainEnv();
    expect(() => loadConfig(missing)).toThrow(/QUIRE_OAUTH2_TEST_TOKEN_URI is required/);
  });
});
