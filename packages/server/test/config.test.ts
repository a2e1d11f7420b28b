import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustedProxies } from '../src/config.js';

describe('QUIRE_TRUSTED_PROXIES', () => {
  it('trusts the loopback addresses by default', () => {
    expect(loadConfig({}).trustedProxies).toEqual(['loopback']);
  });

  it('reads addresses, CIDR ranges and proxy-addr names; none or nothing trusts nobody', () => {
    expect(parseTrustedProxies(' 10.0.0.2, 172.18.0.0/16,fd00::/8 , loopback,192.168.0.0/255.255.0.0')).toEqual([
      '10.0.0.2',
      '172.18.0.0/16',
      'fd00::/8',
      'loopback',
      '192.168.0.0/255.255.0.0',
    ]);
    expect(parseTrustedProxies('none')).toEqual([]);
    expect(parseTrustedProxies('')).toEqual([]);
  });

  it.each(['proxy.example.org', '10.0.0.0/33', '10.0.0.1/8/8', 'true', '*'])('refuses %j at start-up', (value) => {
    expect(() => loadConfig({ QUIRE_TRUSTED_PROXIES: value })).toThrow(/QUIRE_TRUSTED_PROXIES/);
  });
});

describe('session lifetime and password length', () => {
  it('default to 30 days and 8 characters', () => {
    expect(loadConfig({})).toMatchObject({ sessionLifetimeMs: 30 * 24 * 3600_000, passwordMinLength: 8 });
  });

  it('read QUIRE_SESSION_LIFETIME_DAYS (fractions allowed) and QUIRE_PASSWORD_MIN_LENGTH', () => {
    const config = loadConfig({ QUIRE_SESSION_LIFETIME_DAYS: '0.5', QUIRE_PASSWORD_MIN_LENGTH: '12' });
    expect(config).toMatchObject({ sessionLifetimeMs: 12 * 3600_000, passwordMinLength: 12 });
  });

  it.each([
    ['QUIRE_SESSION_LIFETIME_DAYS', '0'],
    ['QUIRE_SESSION_LIFETIME_DAYS', 'forever'],
    ['QUIRE_PASSWORD_MIN_LENGTH', '7.5'],
    ['QUIRE_PASSWORD_MIN_LENGTH', '-1'],
  ])('refuses %s=%s at start-up', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('media limits', () => {
  it('default to what a 1,000-page comic scanned at 600 dpi passes', () => {
    expect(loadConfig({}).mediaLimits).toMatchObject({
      maxEntryBytes: 256 * 1024 * 1024,
      maxEntryRatio: 100,
      maxBookBytes: 32 * 1024 ** 3,
      maxEntries: 20_000,
      maxSpineItems: 10_000,
      maxMarkupBytes: 16 * 1024 * 1024,
      maxImagePixels: 100_000_000,
      maxConcurrentDecodes: 2,
      maxBufferedBytes: 512 * 1024 * 1024,
    });
  });

  it('read their QUIRE_ settings, in MB, GB and megapixels', () => {
    const limits = loadConfig({
      QUIRE_MAX_ENTRY_MB: '64',
      QUIRE_MAX_ENTRY_RATIO: '20',
      QUIRE_MAX_BOOK_GB: '0.5',
      QUIRE_MAX_ENTRIES: '500',
      QUIRE_MAX_SPINE_ITEMS: '300',
      QUIRE_MAX_MARKUP_MB: '2',
      QUIRE_MAX_IMAGE_MEGAPIXELS: '40',
      QUIRE_IMAGE_DECODES: '4',
      QUIRE_MAX_BUFFERED_MB: '300',
    }).mediaLimits;
    expect(limits).toMatchObject({
      maxEntryBytes: 64 * 1024 * 1024,
      maxEntryRatio: 20,
      maxBookBytes: 512 * 1024 * 1024,
      maxEntries: 500,
      maxSpineItems: 300,
      maxMarkupBytes: 2 * 1024 * 1024,
      maxImagePixels: 40_000_000,
      maxConcurrentDecodes: 4,
      maxBufferedBytes: 300 * 1024 * 1024,
    });
  });

  it.each([
    ['QUIRE_MAX_ENTRY_MB', '0'],
    ['QUIRE_MAX_ENTRIES', '1.5'],
    ['QUIRE_IMAGE_DECODES', 'many'],
  ])('refuses %s=%j at start-up', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
