import { describe, expect, it } from 'vitest';
import { MAX_FAILURES, WINDOW_MS, retryAfterSeconds } from './login-throttle.js';

describe('retryAfterSeconds', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  const failuresAgo = (...secondsAgo: number[]) => secondsAgo.map((s) => new Date(now - s * 1000).toISOString());

  it('lets the attempt through below the limit', () => {
    expect(retryAfterSeconds(failuresAgo(...Array.from({ length: MAX_FAILURES - 1 }, (_, i) => i)), now)).toBe(0);
  });

  it('waits until the oldest counted failure leaves the window', () => {
    const ago = Array.from({ length: MAX_FAILURES }, (_, i) => i * 10); // newest first: 0 s … 90 s ago
    expect(retryAfterSeconds(failuresAgo(...ago), now)).toBe(WINDOW_MS / 1000 - 90);
  });

  it('always asks for at least a second', () => {
    const ago = Array.from({ length: MAX_FAILURES }, () => WINDOW_MS / 1000);
    expect(retryAfterSeconds(failuresAgo(...ago), now)).toBe(1);
  });
});
