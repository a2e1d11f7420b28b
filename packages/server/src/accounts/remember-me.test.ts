import { describe, expect, it } from 'vitest';
import { decodeRememberMe, signRememberMe, verifyRememberMe } from './remember-me.js';

describe('remember-me tokens', () => {
  const expires = Date.UTC(2030, 0, 1);
  const token = signRememberMe('a:b@example.org', 'hash1', expires, 'key1');

  it('round-trips, e-mails with colons included', () => {
    const decoded = decodeRememberMe(token)!;
    expect(decoded).toMatchObject({ email: 'a:b@example.org', expiresAt: expires });
    expect(verifyRememberMe(decoded, 'hash1', 'key1')).toBe(true);
  });

  it.each([
    ['another key', 'hash1', 'key2'],
    ['another password hash', 'hash2', 'key1'],
  ])('fails with %s', (_name, hash, key) => {
    expect(verifyRememberMe(decodeRememberMe(token)!, hash, key)).toBe(false);
  });

  it('fails when the expiry was changed', () => {
    const decoded = decodeRememberMe(token)!;
    expect(verifyRememberMe({ ...decoded, expiresAt: expires + 1 }, 'hash1', 'key1')).toBe(false);
  });

  it.each(['', 'garbage', Buffer.from('a@b.c:12:MD5:abc').toString('base64url')])('rejects %j as not a token', (v) => {
    expect(decodeRememberMe(v)).toBeUndefined();
  });
});
