import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stateless remember-me tokens in the manner of Spring's TokenBasedRememberMeServices:
 * `base64(email:expiryMillis:HmacSHA256:signature)` where the signature is an HMAC, keyed with the
 * server's remember-me key, of `email:expiryMillis:passwordHash`. Nothing is stored: any instance that
 * shares the key can check a token; renewing the key or changing the password invalidates it.
 */
const ALGORITHM = 'HmacSHA256';

export function signRememberMe(email: string, passwordHash: string, expiresAt: number, key: string): string {
  const signature = sign(email, expiresAt, passwordHash, key);
  return Buffer.from(`${email}:${expiresAt}:${ALGORITHM}:${signature}`, 'utf8').toString('base64url');
}

export interface DecodedRememberMe {
  email: string;
  expiresAt: number;
  signature: string;
}

/** Splits a cookie value; undefined when it is not a token at all. */
export function decodeRememberMe(value: string): DecodedRememberMe | undefined {
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const parts = text.split(':');
  if (parts.length < 4) return undefined;
  // The e-mail may itself hold colons: the last three fields are fixed.
  const signature = parts.pop()!;
  const algorithm = parts.pop()!;
  const expiry = parts.pop()!;
  const email = parts.join(':');
  if (algorithm !== ALGORITHM || !/^\d+$/.test(expiry) || !email || !/^[0-9a-f]{64}$/.test(signature)) return undefined;
  return { email, expiresAt: Number(expiry), signature };
}

export function verifyRememberMe(token: DecodedRememberMe, passwordHash: string, key: string): boolean {
  const expected = Buffer.from(sign(token.email, token.expiresAt, passwordHash, key), 'hex');
  const actual = Buffer.from(token.signature, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function sign(email: string, expiresAt: number, passwordHash: string, key: string): string {
  return createHmac('sha256', key).update(`${email}:${expiresAt}:${passwordHash}`).digest('hex');
}
