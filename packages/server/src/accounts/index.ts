import type { Config } from '../config.js';
import type { Repositories, UnitOfWork } from '../domain/ports.js';
import type { EventBus } from '../events/bus.js';
import type { SettingsStore } from '../domain/settings.js';
import { Users } from './users.js';
import { Sessions } from './sessions.js';
import { RememberMeTokens } from './remember-me.js';
import { ApiKeys } from './api-keys.js';
import { AuthenticationActivity } from './authentication-activity.js';
import { LoginThrottle } from './login-throttle.js';
import { Authenticator } from './authenticator.js';
import { OAuth2Login } from './oauth2-login.js';

export interface AccountsDeps {
  repos: Pick<Repositories, 'users' | 'sessions' | 'apiKeys' | 'activity' | 'rememberMeTokens' | 'oauth2Requests'>;
  uow: UnitOfWork;
  events: EventBus;
  settings: SettingsStore;
  config: Config;
  /** The clock, replaceable in tests. */
  now?: () => number;
}

/** Users, sessions, API keys and authentication activity. */
export type Accounts = ReturnType<typeof createAccounts>;

export function createAccounts(deps: AccountsDeps) {
  const now = deps.now ?? Date.now;
  const repositories = deps.repos;
  const sessions = new Sessions({
    sessions: repositories.sessions,
    events: deps.events,
    now,
    lifetimeMs: deps.config.sessionLifetimeMs,
  });
  const rememberMe = new RememberMeTokens({ tokens: repositories.rememberMeTokens, now });
  const activity = new AuthenticationActivity({ activity: repositories.activity, now });
  const apiKeys = new ApiKeys({ apiKeys: repositories.apiKeys, now });
  const throttle = new LoginThrottle({ activity: repositories.activity, now });
  const authenticator = new Authenticator({
    users: repositories.users,
    sessions,
    rememberMe,
    apiKeys,
    activity,
    throttle,
    settings: deps.settings,
  });
  const users = new Users({
    uow: deps.uow,
    users: repositories.users,
    activity: repositories.activity,
    sessions,
    rememberMe,
    confirmPassword: (user, password, client) => authenticator.confirmPassword(user, password, client),
    passwordMinLength: deps.config.passwordMinLength,
    now,
  });
  const oauth2 = new OAuth2Login({
    config: deps.config.oauth2,
    requests: repositories.oauth2Requests,
    users: repositories.users,
    createUser: (email, password) => users.create({ email, password }),
    activity,
    sessions,
    now,
  });
  return {
    users,
    sessions,
    oauth2,
    apiKeys,
    activity,
    authenticator,
    /**
     * Drops authentication activity older than a month, sessions that are over (sessions.ts) and expired
     * remember-me tokens, and OAuth2 logins never finished. Run it once a day (and at start-up); safe to run from
     * several instances.
     */
    async housekeeping(): Promise<{ activity: number; sessions: number; rememberMe: number; oauth2Requests: number }> {
      return {
        activity: await activity.purge(),
        sessions: await sessions.purgeExpired(),
        rememberMe: await rememberMe.purgeExpired(),
        oauth2Requests: await repositories.oauth2Requests.deleteExpired(now()),
      };
    },
  };
}
