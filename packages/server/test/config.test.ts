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
