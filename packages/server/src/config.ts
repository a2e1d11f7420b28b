import { isIP } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBuildInfo, type BuildInfo } from './build-info.js';
import { DEFAULT_MEDIA_LIMITS, type MediaLimits } from './media/limits.js';

/** Everything the process reads from its environment, once, at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** From QUIRE_CONTEXT_PATH; the `serverContextPath` setting wins when set (api.md §1.1). */
  contextPath: string;
  logLevel: string;
  /** The built web client, served with a history-mode fallback. */
  webDir: string;
  /** Write logs to stdout as well as the rotating file (off in tests). */
  logToStdout: boolean;
  /** The version and the git commit this build was made from. */
  build: BuildInfo;
  /**
   * Peers whose `X-Forwarded-*` headers are believed (IPs, CIDRs, or proxy-addr's `loopback`, `linklocal`,
   * `uniquelocal`); empty: nobody's. Fastify's `trustProxy` takes the list as it is.
   */
  trustedProxies: string[];
  /** A session ends this long after it was opened, however busy (QUIRE_SESSION_LIFETIME_DAYS). */
  sessionLifetimeMs: number;
  /** New passwords (claim, user creation, password change) are at least this many characters long. */
  passwordMinLength: number;
  /** Books a Kobo receives per sync call before it is told to continue (QUIRE_KOBO_SYNC_ITEM_LIMIT, Komga's 100). */
  koboSyncItemLimit: number;
  /**
   * The Kobo store calls are forwarded to when the administrator turns `koboProxy` on (QUIRE_KOBO_STORE_URL):
   * configuration, not a setting, so no administrator session can point the server elsewhere.
   */
  koboStoreUrl: string;
  /**
   * kepubify's path from the configuration (QUIRE_KEPUBIFY_PATH), null when unset: the `kepubifyPath` setting
   * overrides it (Komga's `komga.kobo.kepubify-path`).
   */
  kepubifyPath: string | null;
  /**
   * A `postgres://` (or `postgresql://`) connection string from QUIRE_DATABASE_URL: PostgreSQL mode, where several
   * instances share the database, the task queue and the events (issue 20). Undefined: SQLite under the data dir.
   */
  databaseUrl: string | undefined;
  /** Rendered PDF pages kept on disk under the data dir, at most this many bytes; 0: none (QUIRE_PDF_PAGE_CACHE_MB). */
  pdfPageCacheBytes: number;
  /** What one book may cost in entries, inflated bytes and decoded pixels (media/limits.ts). */
  mediaLimits: MediaLimits;
  /**
   * The address browsers reach Quire at, context path included, without a trailing slash (QUIRE_BASE_URL);
   * undefined when not set. OAuth2 redirect URIs are built from it, never from a request's Host header.
   */
  baseUrl: string | undefined;
  /** OAuth2 / OpenID Connect login (api.md §2.7). */
  oauth2: OAuth2Config;
  /** The announcements feed fetched in the background (updates/announcements.ts). */
  announcements: AnnouncementsConfig;
}

/**
 * One login provider, from `QUIRE_OAUTH2_<ID>_*`: OpenID Connect (an issuer, whose metadata is discovered), or plain
 * OAuth2 (its three endpoints; the e-mail comes from its user-info answer, as for GitHub).
 */
export type OAuth2ProviderConfig = {
  /** The `<ID>` of its variables, lower-cased: the URL segment (`/oauth2/authorization/{registrationId}`). */
  registrationId: string;
  /** Shown on the login page's button and recorded as the activity source `OAuth2:<name>`. */
  name: string;
  clientId: string;
  clientSecret: string;
  /** OpenID Connect: always holds `openid` (by default `openid email profile`). */
  scopes: string[];
} & (
  | {
      kind: 'oidc';
      /** The issuer identifier; its `/.well-known/openid-configuration` is read at the first login. */
      issuer: URL;
    }
  | { kind: 'oauth2'; authorizationUri: URL; tokenUri: URL; userInfoUri: URL }
);

export interface OAuth2Config {
  providers: OAuth2ProviderConfig[];
  /** Log in people who have no account by creating one (komga.oauth2-account-creation); off by default. */
  accountCreation: boolean;
  /** Refuse an ID token whose `email_verified` is not true (komga.oidc-email-verification); on by default. */
  emailVerification: boolean;
  /** How long one call to a provider (discovery, token, keys) may take before the login fails. */
  timeoutMs: number;
}

export interface AnnouncementsConfig {
  /** A JSON Feed's http(s) URL (QUIRE_ANNOUNCEMENTS_URL); null: no feed, the announcements are empty. */
  feedUrl: string | null;
  /** How often the feed is fetched, across every instance sharing the database. */
  refreshMs: number;
  /** A fetch that takes longer, body included, is abandoned. */
  timeoutMs: number;
  /** A feed bigger than this is refused without being read further. */
  maxBytes: number;
}

const here = dirname(fileURLToPath(import.meta.url));

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = Number(env.QUIRE_PORT ?? 25600);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`QUIRE_PORT must be 0..65535, got ${env.QUIRE_PORT}`);
  return {
    port,
    host: env.QUIRE_HOST ?? '0.0.0.0',
    dataDir: resolve(env.QUIRE_DATA_DIR ?? join(homedir(), '.quire')),
    contextPath: normaliseContextPath(env.QUIRE_CONTEXT_PATH ?? ''),
    logLevel: env.QUIRE_LOG_LEVEL ?? 'info',
    webDir: resolve(env.QUIRE_WEB_DIR ?? join(here, '../../web/dist')),
    logToStdout: (env.QUIRE_LOG_STDOUT ?? 'true') !== 'false',
    build: readBuildInfo(),
    trustedProxies: parseTrustedProxies(env.QUIRE_TRUSTED_PROXIES ?? 'loopback'),
    sessionLifetimeMs: positiveNumber(env, 'QUIRE_SESSION_LIFETIME_DAYS', 30) * 24 * 3600_000,
    passwordMinLength: positiveInteger(env, 'QUIRE_PASSWORD_MIN_LENGTH', 8),
    koboSyncItemLimit: positiveInteger(env, 'QUIRE_KOBO_SYNC_ITEM_LIMIT', 100),
    koboStoreUrl: (env.QUIRE_KOBO_STORE_URL ?? 'https://storeapi.kobo.com').replace(/\/+$/, ''),
    kepubifyPath: env.QUIRE_KEPUBIFY_PATH || null,
    databaseUrl: databaseUrl(env.QUIRE_DATABASE_URL),
    pdfPageCacheBytes: Math.round(nonNegativeNumber(env, 'QUIRE_PDF_PAGE_CACHE_MB', 512) * 1024 * 1024),
    mediaLimits: loadMediaLimits(env),
    ...loadLogin(env),
    announcements: {
      feedUrl: feedUrl(env.QUIRE_ANNOUNCEMENTS_URL ?? ''),
      refreshMs: positiveNumber(env, 'QUIRE_ANNOUNCEMENTS_REFRESH_MINUTES', 60) * 60_000,
      timeoutMs: positiveNumber(env, 'QUIRE_ANNOUNCEMENTS_TIMEOUT_SECONDS', 10) * 1000,
      maxBytes: Math.round(positiveNumber(env, 'QUIRE_ANNOUNCEMENTS_MAX_KB', 1024) * 1024),
    },
  };
}

/** OAuth2 providers need the public address: their redirect URI is built from it. */
function loadLogin(env: Record<string, string | undefined>): Pick<Config, 'baseUrl' | 'oauth2'> {
  const baseUrl = parseBaseUrl(env.QUIRE_BASE_URL);
  const oauth2 = loadOAuth2(env);
  if (oauth2.providers.length > 0 && !baseUrl)
    throw new Error('QUIRE_BASE_URL is required with OAuth2 providers: their redirect URIs are built from it');
  return { baseUrl, oauth2 };
}

function parseBaseUrl(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`QUIRE_BASE_URL must be an absolute http(s) URL, got ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`QUIRE_BASE_URL must be an absolute http(s) URL, got ${value}`);
  if (url.search || url.hash) throw new Error(`QUIRE_BASE_URL must have no query or fragment, got ${value}`);
  return url.href.replace(/\/+$/, '');
}

const PROVIDER_VARIABLE =
  /^QUIRE_OAUTH2_([A-Z0-9_]+?)_(ISSUER|CLIENT_ID|CLIENT_SECRET|SCOPES|NAME|AUTHORIZATION_URI|TOKEN_URI|USER_INFO_URI)$/;
const OAUTH2_SETTINGS = new Set(['QUIRE_OAUTH2_ACCOUNT_CREATION', 'QUIRE_OAUTH2_TIMEOUT_SECONDS']);

/**
 * Providers are grouped by the `<ID>` of `QUIRE_OAUTH2_<ID>_ISSUER` (or `_AUTHORIZATION_URI`, `_TOKEN_URI`,
 * `_USER_INFO_URI`), `_CLIENT_ID`, `_CLIENT_SECRET`, `_SCOPES`, `_NAME`. Any other `QUIRE_OAUTH2_` variable, or a
 * provider missing a required one, stops the start-up: a typo would otherwise silently remove a login button.
 */
function loadOAuth2(env: Record<string, string | undefined>): OAuth2Config {
  const byId = new Map<string, Record<string, string>>();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('QUIRE_OAUTH2_') || OAUTH2_SETTINGS.has(name) || value === undefined) continue;
    const match = PROVIDER_VARIABLE.exec(name);
    if (!match) throw new Error(`${name}: unknown OAuth2 setting (expected QUIRE_OAUTH2_<ID>_ISSUER, _CLIENT_ID, …)`);
    const [, id, field] = match as unknown as [string, string, string];
    byId.set(id, { ...byId.get(id), [field]: value.trim() });
  }
  const providers = [...byId].map(([id, fields]): OAuth2ProviderConfig => {
    const required = (field: string) => {
      const value = fields[field];
      if (!value) throw new Error(`QUIRE_OAUTH2_${id}_${field} is required for the OAuth2 provider ${id}`);
      return value;
    };
    const url = (field: string) => {
      try {
        return new URL(required(field));
      } catch (err) {
        if (err instanceof TypeError)
          throw new Error(`QUIRE_OAUTH2_${id}_${field} must be a URL, got ${fields[field]}`);
        throw err;
      }
    };
    const registrationId = id.toLowerCase();
    const common = {
      registrationId,
      name: fields.NAME || registrationId,
      clientId: required('CLIENT_ID'),
      clientSecret: required('CLIENT_SECRET'),
    };
    const scopes = (fields.SCOPES ?? '').split(/[\s,]+/).filter(Boolean);
    const endpoints = ['AUTHORIZATION_URI', 'TOKEN_URI', 'USER_INFO_URI'].filter((f) => fields[f] !== undefined);
    if (fields.ISSUER === undefined && endpoints.length > 0)
      return {
        ...common,
        kind: 'oauth2',
        scopes,
        authorizationUri: url('AUTHORIZATION_URI'),
        tokenUri: url('TOKEN_URI'),
        userInfoUri: url('USER_INFO_URI'),
      };
    if (endpoints.length > 0)
      throw new Error(
        `QUIRE_OAUTH2_${id}: give either _ISSUER (OpenID Connect) or _AUTHORIZATION_URI, _TOKEN_URI and _USER_INFO_URI (OAuth2), not both`,
      );
    if (scopes.length === 0) scopes.push('openid', 'email', 'profile');
    if (!scopes.includes('openid')) scopes.unshift('openid');
    return { ...common, kind: 'oidc', scopes, issuer: url('ISSUER') };
  });
  providers.sort((a, b) => a.registrationId.localeCompare(b.registrationId));
  return {
    providers,
    accountCreation: booleanSetting(env, 'QUIRE_OAUTH2_ACCOUNT_CREATION', false),
    emailVerification: booleanSetting(env, 'QUIRE_OIDC_EMAIL_VERIFICATION', true),
    timeoutMs: positiveNumber(env, 'QUIRE_OAUTH2_TIMEOUT_SECONDS', 10) * 1000,
  };
}

function booleanSetting(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`${name} must be true or false, got ${env[name]}`);
}

/** Empty: no feed. Anything but an absolute http(s) URL is a start-up error, not a feed that never loads. */
function feedUrl(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  const url = URL.canParse(trimmed) ? new URL(trimmed) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(`QUIRE_ANNOUNCEMENTS_URL must be an http or https URL, got ${value}`);
  return url.href;
}

const MiB = 1024 * 1024;

function loadMediaLimits(env: Record<string, string | undefined>): MediaLimits {
  const d = DEFAULT_MEDIA_LIMITS;
  return {
    ...d,
    maxEntryBytes: Math.round(positiveNumber(env, 'QUIRE_MAX_ENTRY_MB', d.maxEntryBytes / MiB) * MiB),
    maxEntryRatio: positiveNumber(env, 'QUIRE_MAX_ENTRY_RATIO', d.maxEntryRatio),
    maxBookBytes: Math.round(positiveNumber(env, 'QUIRE_MAX_BOOK_GB', d.maxBookBytes / (1024 * MiB)) * 1024 * MiB),
    maxEntries: positiveInteger(env, 'QUIRE_MAX_ENTRIES', d.maxEntries),
    maxSpineItems: positiveInteger(env, 'QUIRE_MAX_SPINE_ITEMS', d.maxSpineItems),
    maxMarkupBytes: Math.round(positiveNumber(env, 'QUIRE_MAX_MARKUP_MB', d.maxMarkupBytes / MiB) * MiB),
    maxImagePixels: Math.round(positiveNumber(env, 'QUIRE_MAX_IMAGE_MEGAPIXELS', d.maxImagePixels / 1e6) * 1e6),
    maxConcurrentDecodes: positiveInteger(env, 'QUIRE_IMAGE_DECODES', d.maxConcurrentDecodes),
    maxBufferedBytes: Math.round(positiveNumber(env, 'QUIRE_MAX_BUFFERED_MB', d.maxBufferedBytes / MiB) * MiB),
  };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `a, b/24, loopback`; `none` or empty for nobody. Anything else is a start-up error, not a silent default. */
export function parseTrustedProxies(value: string): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 1 && entries[0]!.toLowerCase() === 'none') return [];
  for (const entry of entries) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address = '', range, ...rest] = entry.split('/');
    const family = isIP(address);
    const validRange =
      range === undefined ||
      (/^\d+$/.test(range) && Number(range) <= (family === 6 ? 128 : 32)) ||
      (family === 4 && isIP(range) === 4);
    if (!family || !validRange || rest.length > 0)
      throw new Error(
        `QUIRE_TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`,
      );
  }
  return entries;
}

function positiveNumber(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${env[name]}`);
  return value;
}

function nonNegativeNumber(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be 0 or a positive number, got ${env[name]}`);
  return value;
}

function positiveInteger(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = positiveNumber(env, name, fallback);
  if (!Number.isInteger(value)) throw new Error(`${name} must be a whole number, got ${env[name]}`);
  return value;
}

/** '' or '/quire': leading slash, no trailing slash. */
export function normaliseContextPath(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!trimmed) return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function databaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^postgres(ql)?:\/\//.test(value)) {
    throw new Error('QUIRE_DATABASE_URL must be a postgres:// connection string (leave it unset for SQLite)');
  }
  return value;
}
