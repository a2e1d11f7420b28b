import { createHash, randomBytes } from 'node:crypto';
import type * as Oidc from 'openid-client';
import type { OAuth2Config, OAuth2ProviderConfig } from '../config.js';
import type { OAuth2RequestRepository, UserRepository } from '../domain/ports.js';
import type { StoredOAuth2Request, StoredUser } from '../domain/account.js';
import type { AuthenticationActivity, ClientInfo } from './authentication-activity.js';
import type { Sessions } from './sessions.js';
import { toCurrentUser } from './users.js';
import type { Login } from './authenticator.js';

/** openid-client, loaded at the first OAuth2 login: a server without a provider never loads it. */
const loadOidc = () => import('openid-client');

/** How long a browser has between leaving for the provider and coming back. */
export const OAUTH2_REQUEST_TTL_MS = 10 * 60_000;
/** Provider metadata and keys are read again after this long, so a provider's changes are seen without a restart. */
const DISCOVERY_TTL_MS = 3600_000;

/** The error codes of spec.md §8 that an OAuth2 login can end with (api.md §2.7). */
export const OAUTH2_ERRORS = {
  noEmail: 'ERR_1024',
  noLocalUser: 'ERR_1025',
  emailNotVerified: 'ERR_1026',
  noEmailVerified: 'ERR_1027',
  oidcNoEmail: 'ERR_1028',
} as const;

/**
 * A login that did not happen. `reason` is what reaches the login page's `?error=`: one of OAUTH2_ERRORS, or a
 * sentence saying what went wrong, as the reference sends its exception's message.
 */
export class OAuth2LoginFailure extends Error {
  constructor(
    readonly reason: string,
    /** The e-mail the provider gave, when it got that far (recorded with the failure). */
    readonly email?: string,
  ) {
    super(reason);
  }
}

/** The provider as the login page lists it (`OAuth2ClientDto`). */
export interface OAuth2ProviderSummary {
  name: string;
  registrationId: string;
}

/**
 * OAuth2 / OpenID Connect login (api.md §2.7) with openid-client: the authorization code flow with PKCE (S256),
 * state and nonce. `start` keeps the three secrets in the database under the hash of a random browser key (the
 * caller puts the key in a cookie), so the callback may reach another instance; `finish` takes the row (once),
 * exchanges the code, and lets openid-client check the state, the PKCE verifier, the ID token's signature against
 * the provider's keys, its issuer, audience, expiry and nonce (a plain OAuth2 provider has no ID token: the e-mail
 * comes from its user-info answer). The person is then matched by e-mail, case-insensitively, or given an account
 * when `accountCreation` is on, and a session is opened. Every attempt is recorded with the source `OAuth2:<name>`.
 * Every call to a provider is bounded by `timeoutMs`.
 */
export class OAuth2Login {
  private readonly discovered = new Map<string, { config: Promise<Oidc.Configuration>; at: number }>();

  constructor(
    private readonly d: {
      config: OAuth2Config;
      requests: OAuth2RequestRepository;
      users: UserRepository;
      /** Makes an account with the default roles and an unusable random password. */
      createUser: (email: string, password: string) => Promise<StoredUser>;
      activity: AuthenticationActivity;
      sessions: Sessions;
      now: () => number;
    },
  ) {}

  providers(): OAuth2ProviderSummary[] {
    return this.d.config.providers.map((p) => ({ name: p.name, registrationId: p.registrationId }));
  }

  provider(registrationId: string): OAuth2ProviderConfig | undefined {
    return this.d.config.providers.find((p) => p.registrationId === registrationId);
  }

  /**
   * The provider's authorization URL, and the browser key the caller must set as a cookie. Throws
   * OAuth2LoginFailure when the provider cannot be reached.
   */
  async start(provider: OAuth2ProviderConfig, redirectUri: string): Promise<{ url: string; browserKey: string }> {
    const oidc = await loadOidc();
    const config = await this.configuration(provider);
    const browserKey = randomBytes(32).toString('base64url');
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const pkceVerifier = oidc.randomPKCECodeVerifier();
    await this.d.requests.deleteExpired(this.d.now());
    await this.d.requests.insert({
      browserKeyHash: hashKey(browserKey),
      registrationId: provider.registrationId,
      state,
      nonce,
      pkceVerifier,
      expiresAt: this.d.now() + OAUTH2_REQUEST_TTL_MS,
    });
    const parameters: Record<string, string> = {
      redirect_uri: redirectUri,
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(pkceVerifier),
      code_challenge_method: 'S256',
    };
    if (provider.scopes.length > 0) parameters.scope = provider.scopes.join(' ');
    if (provider.kind === 'oidc') parameters.nonce = nonce;
    const url = oidc.buildAuthorizationUrl(config, parameters);
    return { url: url.href, browserKey };
  }

  /**
   * The callback: `redirectUri` is the one `start` sent, `query` the callback's query string. Throws
   * OAuth2LoginFailure, after recording it, for anything but a login.
   */
  async finish(
    provider: OAuth2ProviderConfig,
    browserKey: string,
    redirectUri: string,
    query: string,
    client: ClientInfo,
  ): Promise<Login> {
    const source = `OAuth2:${provider.name}` as const;
    const oidc = await loadOidc();
    let email: string | undefined;
    try {
      const request = browserKey ? await this.d.requests.take(hashKey(browserKey)) : undefined;
      if (!request || request.registrationId !== provider.registrationId || request.expiresAt < this.d.now())
        throw new OAuth2LoginFailure('No OAuth2 login was started from this browser, or it took too long');
      const config = await this.configuration(provider);
      const callback = new URL(redirectUri);
      callback.search = query;
      email =
        provider.kind === 'oidc'
          ? await this.oidcEmail(oidc, config, callback, request)
          : await this.oauth2Email(oidc, config, callback, request, provider.userInfoUri);
      const user = await this.userFor(email);
      await this.d.activity.record({ source, success: true, userId: user.id, email: user.email }, client);
      const sessionId = await this.d.sessions.open(user.id, client);
      return { user: toCurrentUser(user, { sessionId }), sessionId };
    } catch (err) {
      const failure = asFailure(err, oidc);
      await this.d.activity.record(
        { source, success: false, email: (email ?? failure.email)?.toLowerCase() ?? null, error: failure.reason },
        client,
      );
      throw failure;
    }
  }

  /**
   * OpenID Connect: the ID token is required and checked (signature, issuer, audience, expiry, nonce); the UserInfo
   * endpoint's claims complete it, as Spring's OidcUserService does (many providers, oidc-provider among them, put
   * e-mail claims only there when an access token is issued). Then the reference's e-mail rules.
   */
  private async oidcEmail(
    oidc: typeof Oidc,
    config: Oidc.Configuration,
    callback: URL,
    request: StoredOAuth2Request,
  ): Promise<string> {
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      expectedState: request.state,
      expectedNonce: request.nonce,
      pkceCodeVerifier: request.pkceVerifier,
      idTokenExpected: true,
    });
    const idToken = tokens.claims()!;
    const claims: Record<string, unknown> = { ...idToken };
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token)
      Object.assign(claims, await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub), { sub: idToken.sub });
    const email = typeof claims.email === 'string' && claims.email ? claims.email : undefined;
    if (!email) throw new OAuth2LoginFailure(OAUTH2_ERRORS.oidcNoEmail);
    if (this.d.config.emailVerification) {
      if (claims.email_verified === undefined || claims.email_verified === null)
        throw new OAuth2LoginFailure(OAUTH2_ERRORS.noEmailVerified, email);
      if (claims.email_verified !== true && claims.email_verified !== 'true')
        throw new OAuth2LoginFailure(OAUTH2_ERRORS.emailNotVerified, email);
    }
    return email;
  }

  /** Plain OAuth2: the e-mail is the `email` attribute of the user-info answer (ERR_1024 without one). */
  private async oauth2Email(
    oidc: typeof Oidc,
    config: Oidc.Configuration,
    callback: URL,
    request: StoredOAuth2Request,
    userInfoUri: URL,
  ): Promise<string> {
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      expectedState: request.state,
      pkceCodeVerifier: request.pkceVerifier,
    });
    const res = await oidc.fetchProtectedResource(config, tokens.access_token, userInfoUri, 'GET');
    if (!res.ok) throw new OAuth2LoginFailure(`The provider's user information answered ${res.status}`);
    const info = (await res.json()) as Record<string, unknown> | null;
    const email = info && typeof info.email === 'string' && info.email ? info.email : undefined;
    if (!email) throw new OAuth2LoginFailure(OAUTH2_ERRORS.noEmail);
    return email;
  }

  private async userFor(email: string): Promise<StoredUser> {
    const existing = await this.d.users.findByEmail(email);
    if (existing) return existing;
    if (!this.d.config.accountCreation) throw new OAuth2LoginFailure(OAUTH2_ERRORS.noLocalUser);
    // Nobody knows this password: the account logs in through its provider until an admin sets one.
    return this.d.createUser(email, randomBytes(48).toString('base64url'));
  }

  /** The provider's metadata, read once an hour; a failed read is not kept, so the next login tries again. */
  private configuration(provider: OAuth2ProviderConfig): Promise<Oidc.Configuration> {
    const cached = this.discovered.get(provider.registrationId);
    if (cached && this.d.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const timeout = this.d.config.timeoutMs / 1000;
    const config = loadOidc().then(async (oidc) => {
      // The ID token's signature is checked against the provider's published keys; a plain OAuth2 provider has none.
      const execute: ((config: Oidc.Configuration) => void)[] =
        provider.kind === 'oidc' ? [oidc.enableNonRepudiationChecks] : [];
      // A provider on plain HTTP (one on the same machine or network): openid-client refuses it unless told.
      const url = provider.kind === 'oidc' ? provider.issuer : provider.authorizationUri;
      if (url.protocol === 'http:') execute.push(oidc.allowInsecureRequests);
      try {
        return provider.kind === 'oidc'
          ? await oidc.discovery(provider.issuer, provider.clientId, undefined, clientAuthentication(oidc, provider), {
              execute,
              timeout,
            })
          : plainOAuth2(oidc, provider, execute, timeout);
      } catch (err) {
        this.discovered.delete(provider.registrationId);
        throw asFailure(err, oidc);
      }
    });
    this.discovered.set(provider.registrationId, { config, at: this.d.now() });
    return config;
  }
}

/**
 * A plain OAuth2 provider has no metadata to discover: its endpoints are configured. openid-client needs an issuer;
 * the authorization server's origin stands for it (a provider that also returns an ID token must name that issuer).
 */
function plainOAuth2(
  oidc: typeof Oidc,
  provider: Extract<OAuth2ProviderConfig, { kind: 'oauth2' }>,
  execute: ((config: Oidc.Configuration) => void)[],
  timeout: number,
): Oidc.Configuration {
  const config = new oidc.Configuration(
    {
      issuer: provider.authorizationUri.origin,
      authorization_endpoint: provider.authorizationUri.href,
      token_endpoint: provider.tokenUri.href,
    },
    provider.clientId,
    undefined,
    clientAuthentication(oidc, provider),
  );
  for (const apply of execute) apply(config);
  config.timeout = timeout;
  return config;
}

/** HTTP Basic at the token endpoint, Spring's default (`client_secret_basic`), so providers set up for Komga accept it. */
const clientAuthentication = (oidc: typeof Oidc, provider: OAuth2ProviderConfig) =>
  oidc.ClientSecretBasic(provider.clientSecret);

const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** What the login page is told: our own failures as they are, a provider's refusal or silence as a sentence. */
function asFailure(err: unknown, oidc: typeof Oidc): OAuth2LoginFailure {
  if (err instanceof OAuth2LoginFailure) return err;
  if (err instanceof oidc.AuthorizationResponseError)
    return new OAuth2LoginFailure(`The provider refused the login: ${err.error_description ?? err.error}`);
  if (err instanceof oidc.ResponseBodyError)
    return new OAuth2LoginFailure(`The provider refused the login: ${err.error_description ?? err.error}`);
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return new OAuth2LoginFailure('The OAuth2 provider did not answer in time');
  if (err instanceof TypeError && err.message === 'fetch failed')
    return new OAuth2LoginFailure('The OAuth2 provider could not be reached');
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : undefined;
  if (cause && (cause.name === 'TimeoutError' || cause.name === 'AbortError'))
    return new OAuth2LoginFailure('The OAuth2 provider did not answer in time');
  // openid-client's own messages are general ("invalid response encountered"); the check that failed is the cause's.
  if (cause) return new OAuth2LoginFailure(`${(err as Error).message}: ${cause.message}`);
  return new OAuth2LoginFailure(err instanceof Error ? err.message : String(err));
}
