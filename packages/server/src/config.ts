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
  /** What one book may cost in entries, inflated bytes and decoded pixels (media/limits.ts). */
  mediaLimits: MediaLimits;
  /** The announcements feed fetched in the background (updates/announcements.ts). */
  announcements: AnnouncementsConfig;
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
    mediaLimits: loadMediaLimits(env),
    announcements: {
      feedUrl: feedUrl(env.QUIRE_ANNOUNCEMENTS_URL ?? ''),
      refreshMs: positiveNumber(env, 'QUIRE_ANNOUNCEMENTS_REFRESH_MINUTES', 60) * 60_000,
      timeoutMs: positiveNumber(env, 'QUIRE_ANNOUNCEMENTS_TIMEOUT_SECONDS', 10) * 1000,
      maxBytes: Math.round(positiveNumber(env, 'QUIRE_ANNOUNCEMENTS_MAX_KB', 1024) * 1024),
    },
  };
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
