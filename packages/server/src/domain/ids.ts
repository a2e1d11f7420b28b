import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32, as TSIDs use
const COUNTER_MAX = 0x3fffff;

let lastMs = -1;
let lastCounter = 0;

/** A random start for a millisecond's counter, in the lower half: two million ids of room after it. */
const randomStart = () => randomBytes(3).readUIntBE(0, 3) & 0x1fffff;

/**
 * A TSID-like id: 13 base32 characters holding 42 bits of milliseconds and a 22-bit counter, so ids sort by
 * creation time like Komga's. The counter starts at random in each millisecond and counts up within it, as
 * TSID's does: a scan that creates 100,000 books in a few milliseconds got duplicate ids from 22 random bits
 * alone (the birthday bound is about 2,000 ids per millisecond).
 */
export function newId(now = Date.now()): string {
  let ms = now;
  let counter: number;
  if (ms === lastMs && lastCounter < COUNTER_MAX) counter = lastCounter + 1;
  else if (ms === lastMs) {
    ms += 1; // the millisecond is full: borrow the next one
    counter = randomStart();
  } else counter = randomStart();
  lastMs = ms;
  lastCounter = counter;
  let value = (BigInt(ms - Date.UTC(2020, 0, 1)) << 22n) | BigInt(counter);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}
