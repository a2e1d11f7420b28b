import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The claims a person logging in at the test provider gets, by the login name typed on its form. */
export type TestAccounts = Record<string, { email?: string; email_verified?: boolean }>;

export interface TestOidcProvider {
  /** The issuer identifier, `http://<host>:<port>`. */
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string;
  accounts: TestAccounts;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package, its development login form) on a free loopback port,
 * with one confidential client. Consent is granted without asking, so its pages are the login form only. Whoever
 * logs in as a name of `accounts` gets its claims (`email`, `email_verified`), anyone else only a subject.
 * `issuerHost` is the host the provider names itself by: `localhost` while Quire is told `127.0.0.1` makes an
 * issuer mismatch.
 */
export async function startOidcProvider(opts: {
  redirectUris: string[];
  accounts: TestAccounts;
  issuerHost?: string;
}): Promise<TestOidcProvider> {
  const clientId = 'quire-test';
  const clientSecret = 'quire-test-secret-that-is-long-enough';
  // Listening first: the issuer names the port.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${opts.issuerHost ?? '127.0.0.1'}:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, ...opts.accounts[id] }),
    }),
    // Consent is not what is tested: every login is granted the scopes asked for.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  // Keep its development warnings out of the test output.
  provider.on('server_error', () => {});
  server.on('request', provider.callback());
  return {
    issuer,
    port,
    clientId,
    clientSecret,
    accounts: opts.accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a browser does at the provider, over plain HTTP: follows its redirects from the authorization URL, posts
 * `login` on its login form, and returns where the provider sends the browser back (the callback URL, with `code`
 * and `state`, or `error`).
 */
export async function logInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let hops = 0; hops < 10; hops++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next;
      url = next.href;
      continue;
    }
    const page = await res.text();
    if (res.status === 200 && /name="login"/.test(page)) {
      // The development login form: it posts back to the same address.
      body = new URLSearchParams({ prompt: 'login', login, password: 'any' });
      continue;
    }
    throw new Error(`unexpected answer from the provider at ${url}: ${res.status} ${page.slice(0, 300)}`);
  }
  throw new Error('too many redirects at the provider');
}
