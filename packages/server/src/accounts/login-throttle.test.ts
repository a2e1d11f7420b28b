import { describe, expect, it } from 'vitest';
import { MAX_DELAY_SECONDS, delaySeconds, retryAfterSeconds } from './login-throttle.js';

describe('delaySeconds', () => {
  it('is free up to the allowance, then doubles, up to the cap', () => {
    expect([4, 5, 6, 7, 8].map((n) => delaySeconds(n, 5))).toEqual([0, 1, 2, 4, 8]);
    expect(delaySeconds(40, 5)).toBe(MAX_DELAY_SECONDS);
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  const secondsAgo = (s: number) => new Date(now - s * 1000).toISOString();

  it('lets the attempt through below the allowance', () => {
    expect(retryAfterSeconds({ count: 4, latest: secondsAgo(0) }, 5, now)).toBe(0);
  });

  it('counts the wait from the latest failure', () => {
    // 8 failures, 5 free: 8 s after the latest, which was 3 s ago.
    expect(retryAfterSeconds({ count: 8, latest: secondsAgo(3) }, 5, now)).toBe(5);
    expect(retryAfterSeconds({ count: 8, latest: secondsAgo(8) }, 5, now)).toBe(0);
  });

  it('rounds up, so a client that waits Retry-After is let in', () => {
    expect(retryAfterSeconds({ count: 5, latest: new Date(now - 200).toISOString() }, 5, now)).toBe(1);
  });
});
