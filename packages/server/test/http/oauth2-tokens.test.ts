import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claim, startServer, type TestServer } from '../support/server.js';

const BASE_URL = 'http://quire.example.test';
const CLIENT_ID = 'quire';

/**
 * A provider that lies: discovery, keys, token and UserInfo endpoints of its own, whose ID token the test shapes
 * (another audience, another issuer, expired, signed with a key it does not publish). A real provider never sends
 * these; openid-client must refuse each, and the login page must be told.
 */
class HostileProvider {
  issuer = '';
  nonce = '';
  idToken: (claims: JWTPayload) => Promise<string> = async () => '';
  private server!: Server;
  private published!: CryptoKey;
  private other!: CryptoKey;

  async start() {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    this.published = privateKey;
    this.other = (await generateKeyPair('RS256')).privateKey;
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    this.server = createServer((req, res) => {
      const json = (body: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const path = new URL(req.url!, this.issuer).pathname;
      if (path === '/.well-known/openid-configuration')
        return json({
          issuer: this.issuer,
          authorization_endpoint: `${this.issuer}/auth`,
          token_endpoint: `${this.issuer}/token`,
          userinfo_endpoint: `${this.issuer}/me`,
          jwks_uri: `${this.issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        });
      if (path === '/jwks') return json({ keys: [jwk] });
      if (path === '/me') return json({ sub: 'someone', email: 'admin@example.org', email_verified: true });
      if (path === '/token')
        return void this.idToken({ sub: 'someone', nonce: this.nonce }).then((id_token) =>
          json({ access_token: 'at', token_type: 'Bearer', expires_in: 60, id_token }),
        );
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** An ID token as a correct provider would sign it, changed by `change`. */
  sign(change: { aud?: string; iss?: string; exp?: number; withUnpublishedKey?: boolean } = {}) {
    return (claims: JWTPayload) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(change.iss ?? this.issuer)
        .setAudience(change.aud ?? CLIENT_ID)
        .setIssuedAt(now - 60)
        .setExpirationTime(change.exp ?? now + 300)
        .sign(change.withUnpublishedKey ? this.other : this.published);
    };
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(r));
  }
}

describe('ID tokens a provider should never send', () => {
  const provider = new HostileProvider();
  let s: TestServer;
  beforeAll(async () => {
    await provider.start();
    s = await startServer({
      QUIRE_BASE_URL: BASE_URL,
      QUIRE_OAUTH2_BAD_ISSUER: provider.issuer,
      QUIRE_OAUTH2_BAD_CLIENT_ID: CLIENT_ID,
      QUIRE_OAUTH2_BAD_CLIENT_SECRET: 'secret',
    });
    await claim(s);
  });
  afterAll(async () => {
    await s.close();
    await provider.close();
  });
  afterEach(() => {
    provider.idToken = provider.sign();
  });

  /** Starts a login, lets the provider answer the code with its ID token, and returns the login page's error. */
  async function loginError(): Promise<{ error: string | null; cookies: string[] }> {
    const start = await s.fetch('/oauth2/authorization/bad', { redirect: 'manual' });
    const authorization = new URL(start.headers.get('location')!);
    expect(authorization.origin).toBe(provider.issuer);
    provider.nonce = authorization.searchParams.get('nonce')!;
    const state = authorization.searchParams.get('state')!;
    const flowCookie = start.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const done = await s.fetch(`/login/oauth2/code/bad?code=the-code&state=${encodeURIComponent(state)}`, {
      redirect: 'manual',
      headers: { cookie: flowCookie },
    });
    expect(done.status).toBe(302);
    const location = new URL(done.headers.get('location')!, BASE_URL);
    return { error: location.searchParams.get('error'), cookies: done.headers.getSetCookie() };
  }

  it('a correctly signed token logs in (the checks below fail for their reason only)', async () => {
    provider.idToken = provider.sign();
    const { error, cookies } = await loginError();
    expect(error).toBeNull();
    expect(cookies.some((c) => c.startsWith('KOMGA-SESSION='))).toBe(true);
  });

  it.each([
    ['another audience', { aud: 'someone-else' }, /aud/],
    ['another issuer', { iss: 'http://evil.example' }, /iss/],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 3600 }, /exp/],
    ['a signature by a key the provider does not publish', { withUnpublishedKey: true }, /signature/i],
  ])('refuses %s', async (_name, change, reason) => {
    provider.idToken = provider.sign(change);
    const { error, cookies } = await loginError();
    expect(error).toMatch(reason);
    expect(cookies.some((c) => c.startsWith('KOMGA-SESSION='))).toBe(false);
  });
});
