import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32, as TSIDs use

/**
 * A TSID-like id: 13 base32 characters holding 42 bits of milliseconds and 22 random bits,
 * so ids sort by creation time like Komga's.
 */
export function newId(now = Date.now()): string {
  const random = randomBytes(3).readUIntBE(0, 3) & 0x3fffff;
  let value = (BigInt(now - Date.UTC(2020, 0, 1)) << 22n) | BigInt(random);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}
