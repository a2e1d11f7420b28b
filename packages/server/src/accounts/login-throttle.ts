import { QuireError } from '../domain/errors.js';
import type { AuthenticationActivityRepository } from '../db/repositories/authentication-activity.js';

/**
 * Failed logins are throttled from the failure rows of `authentication_activity`, so every instance
 * that shares the database counts the same attempts, and nothing lives in process memory.
 *
 * Numbers: at most MAX_FAILURES (10) failed attempts within WINDOW_MS (5 minutes) per client ip and,
 * separately, per attempted e-mail (lower-cased). The next attempt answers 429 with Retry-After, without
 * the password (or API key) being checked, and is not recorded (so waiting always ends the block). The
 * block lifts when the oldest of those 10 failures leaves the 5-minute window. Credentials already
 * established (session, remember-me cookie) are never throttled, so a locked-out e-mail still works in
 * the browsers where its owner is logged in.
 */
export const MAX_FAILURES = 10;
export const WINDOW_MS = 5 * 60_000;

export class TooManyAttempts extends QuireError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too many failed login attempts, try again later');
  }
}

/** Seconds to wait, or 0 when the attempt may go ahead. `failures` are ISO dates, newest first. */
export function retryAfterSeconds(failures: readonly string[], now: number): number {
  if (failures.length < MAX_FAILURES) return 0;
  const oldestCounted = Date.parse(failures[MAX_FAILURES - 1]!);
  return Math.max(1, Math.ceil((oldestCounted + WINDOW_MS - now) / 1000));
}

export class LoginThrottle {
  constructor(private readonly d: { activity: AuthenticationActivityRepository; now: () => number }) {}

  /** Throws TooManyAttempts when the ip or the e-mail has failed too often lately. */
  async check(attempt: { ip: string | null; email?: string | null }): Promise<void> {
    const now = this.d.now();
    const since = new Date(now - WINDOW_MS).toISOString();
    const keys: ({ ip: string } | { email: string })[] = [];
    if (attempt.ip) keys.push({ ip: attempt.ip });
    if (attempt.email) keys.push({ email: attempt.email.toLowerCase() });
    let wait = 0;
    for (const key of keys) {
      const failures = await this.d.activity.recentFailures(key, since, MAX_FAILURES);
      wait = Math.max(wait, retryAfterSeconds(failures, now));
    }
    if (wait > 0) throw new TooManyAttempts(wait);
  }
}
