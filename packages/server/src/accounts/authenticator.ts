import { QuireError, invalid } from '../domain/errors.js';
import type { CurrentUser } from '../domain/user.js';
import type { SettingsStore } from '../domain/settings.js';
import type { UserRepository } from '../domain/ports.js';
import type { StoredUser } from '../domain/account.js';
import type { ApiKeys } from './api-keys.js';
import { hashApiKey } from './api-keys.js';
import type { AuthenticationActivity, ClientInfo } from './authentication-activity.js';
import type { LoginThrottle } from './login-throttle.js';
import { verifyNothing, verifyPassword } from './passwords.js';
import type { RememberMeTokens } from './remember-me.js';
import type { Sessions } from './sessions.js';
import { toCurrentUser } from './users.js';

export const BAD_CREDENTIALS = 'Bad credentials';

const unauthenticated = (message = BAD_CREDENTIALS) => new QuireError(401, message);

/** A successful login that opened a session; `rememberMe` is the cookie value when one was asked for. */
export interface Login {
  user: CurrentUser;
  sessionId: string;
  rememberMe?: { value: string; maxAgeSeconds: number };
}

/**
 * Turns credentials into the current user (api.md §2.2), recording every attempt (§2.9) and throttling
 * failed ones (login-throttle.ts). Knows nothing of HTTP: the auth plugin reads headers and cookies.
 */
export class Authenticator {
  constructor(
    private readonly d: {
      users: UserRepository;
      sessions: Sessions;
      rememberMe: RememberMeTokens;
      apiKeys: ApiKeys;
      activity: AuthenticationActivity;
      throttle: LoginThrottle;
      settings: SettingsStore;
    },
  ) {}

  /** Session reuse: nothing recorded. Undefined when the session is unknown, idle too long or its user gone. */
  async session(sessionId: string): Promise<CurrentUser | undefined> {
    const userId = await this.d.sessions.resolve(sessionId);
    if (!userId) return undefined;
    const user = await this.d.users.find(userId);
    return user && toCurrentUser(user, { sessionId });
  }

  /** HTTP Basic: e-mail case-insensitive; success opens a session. Throws 401 or 429. */
  async basic(email: string, password: string, client: ClientInfo, opts: { rememberMe: boolean }): Promise<Login> {
    await this.d.throttle.check({ ip: client.ip, email });
    const user = await this.d.users.findByEmail(email);
    const ok = user ? await verifyPassword(user.passwordHash, password) : await verifyNothing(password);
    if (!user || !ok) {
      await this.d.activity.record(
        { source: 'Password', success: false, userId: user?.id, email: email.toLowerCase(), error: BAD_CREDENTIALS },
        client,
      );
      throw unauthenticated();
    }
    await this.d.activity.record({ source: 'Password', success: true, userId: user.id, email: user.email }, client);
    const sessionId = await this.d.sessions.open(user.id, client);
    const login: Login = { user: toCurrentUser(user, { sessionId }), sessionId };
    if (opts.rememberMe) {
      const { rememberMeKey, rememberMeDurationDays } = await this.d.settings.get();
      const maxAgeSeconds = Math.round(rememberMeDurationDays * 24 * 3600);
      login.rememberMe = {
        value: await this.d.rememberMe.issue(user.id, maxAgeSeconds * 1000, rememberMeKey),
        maxAgeSeconds,
      };
    }
    return login;
  }

  /**
   * The remember-me cookie, when there is no session: success opens a session. Undefined when the token
   * is unknown or over (the caller clears the cookie and carries on unauthenticated).
   */
  async rememberMe(cookie: string, client: ClientInfo): Promise<Login | undefined> {
    const { rememberMeKey } = await this.d.settings.get();
    const token = await this.d.rememberMe.find(cookie, rememberMeKey);
    const user = token && (await this.d.users.find(token.userId));
    let error: string | undefined;
    if (!token || !user) error = 'Invalid remember-me token';
    else if (this.d.rememberMe.isExpired(token)) {
      error = 'Remember-me login has expired';
      await this.d.rememberMe.revoke(cookie, rememberMeKey);
    }
    if (error || !user) {
      await this.d.activity.record(
        { source: 'RememberMe', success: false, userId: user?.id, email: user?.email, error },
        client,
      );
      return undefined;
    }
    await this.d.activity.record({ source: 'RememberMe', success: true, userId: user.id, email: user.email }, client);
    const sessionId = await this.d.sessions.open(user.id, client);
    return { user: toCurrentUser(user, { sessionId }), sessionId };
  }

  /** X-API-Key: stateless, one activity row per request. Throws 401 or 429. */
  async apiKey(key: string, client: ClientInfo): Promise<CurrentUser> {
    await this.d.throttle.check({ ip: client.ip });
    const apiKey = key ? await this.d.apiKeys.findByKey(key) : undefined;
    const user = apiKey && (await this.d.users.find(apiKey.userId));
    if (!apiKey || !user) {
      // Komga keeps the hash of the unknown key, so repeated attempts can be told apart.
      await this.d.activity.record(
        { source: 'ApiKey', success: false, apiKeyComment: hashApiKey(key), error: BAD_CREDENTIALS },
        client,
      );
      throw unauthenticated();
    }
    await this.d.activity.record(
      {
        source: 'ApiKey',
        success: true,
        userId: user.id,
        email: user.email,
        apiKeyId: apiKey.id,
        apiKeyComment: apiKey.comment,
      },
      client,
    );
    return toCurrentUser(user, { apiKeyId: apiKey.id });
  }

  /**
   * The current password of a user who changes it (users.ts): throttled and recorded like a login, since a
   * stolen session could otherwise guess it freely. Throws 429, or a violation on `currentPassword`.
   */
  async confirmPassword(user: StoredUser, password: string, client: ClientInfo): Promise<void> {
    await this.d.throttle.check({ ip: client.ip, email: user.email });
    if (await verifyPassword(user.passwordHash, password)) return;
    await this.d.activity.record(
      { source: 'Password', success: false, userId: user.id, email: user.email.toLowerCase(), error: BAD_CREDENTIALS },
      client,
    );
    throw invalid([{ fieldName: 'currentPassword', message: 'is not the current password' }]);
  }

  /** A session for a caller who has none yet (GET /api/v1/login/set-cookie after an API key). */
  openSession(user: CurrentUser, client: ClientInfo): Promise<string> {
    return this.d.sessions.open(user.id, client);
  }

  /** Logout: the session and the remember-me token of this browser end (either may be empty). */
  async logout(sessionId: string, rememberMeCookie: string): Promise<void> {
    await this.d.sessions.close(sessionId);
    if (rememberMeCookie) await this.d.rememberMe.revoke(rememberMeCookie, (await this.d.settings.get()).rememberMeKey);
  }
}
