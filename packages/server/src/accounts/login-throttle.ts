import { QuireError } from '../domain/errors.js';
import type { AuthenticationActivityRepository } from '../domain/ports.js';
import { ACTIVITY_RETENTION_DAYS } from './authentication-activity.js';

/**
 * Password guesses are slowed down, never locked out, from the failure rows of `authentication_activity`: every
 * instance that shares the database counts the same attempts, and nothing lives in process memory.
 *
 * After `free` failures within the last hour, the next attempt must wait 2^(failures − free) seconds after the
 * latest of them (1 s, 2 s, 4 s … at most 15 minutes). Three counts, the longest wait wins:
 * - the client address and the e-mail together (5 free): the owner's own typos;
 * - the client address, whatever the account, API keys included (10 free): one address trying many accounts;
 * - the e-mail, from any address (10 free), applied only to addresses this account has not logged in from in
 *   the last month: an attacker who changes address at every guess is slowed down as much as one who does
 *   not, while the owner, at home or on his phone's usual network, is not held back by him.
 * An attempt that comes too early answers 429 with Retry-After, without the password (or key) being checked,
 * and is not recorded (so waiting always ends it). Credentials already established (session, remember-me
 * cookie) are never throttled.
 */
export const WINDOW_MS = 60 * 60_000;
export const MAX_DELAY_SECONDS = 15 * 60;
export const FREE_FAILURES = { addressAndEmail: 5, address: 10, email: 10 } as const;
const KNOWN_ADDRESS_MS = ACTIVITY_RETENTION_DAYS * 24 * 3600_000;

export class TooManyAttempts extends QuireError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too many failed login attempts, try again later');
  }
}

/** How long the next attempt waits after the latest of `failures`, in seconds. */
export function delaySeconds(failures: number, free: number): number {
  return failures < free ? 0 : Math.min(MAX_DELAY_SECONDS, 2 ** (failures - free));
}

/** Seconds left to wait now, or 0 when the attempt may go ahead. */
export function retryAfterSeconds(failures: { count: number; latest: string | null }, free: number, now: number) {
  const delay = delaySeconds(failures.count, free);
  if (delay === 0 || failures.latest === null) return 0;
  const left = Date.parse(failures.latest) + delay * 1000 - now;
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export class LoginThrottle {
  constructor(private readonly d: { activity: AuthenticationActivityRepository; now: () => number }) {}

  /** Throws TooManyAttempts when this attempt comes before the wait its recent failures ask for. */
  async check(attempt: { ip: string | null; email?: string | null }): Promise<void> {
    const now = this.d.now();
    const since = new Date(now - WINDOW_MS).toISOString();
    const { activity } = this.d;
    const ip = attempt.ip ?? undefined;
    const email = attempt.email?.toLowerCase();
    let wait = 0;
    if (ip) wait = retryAfterSeconds(await activity.failures({ ip }, since), FREE_FAILURES.address, now);
    if (email) {
      if (ip) {
        const both = await activity.failures({ ip, email }, since);
        wait = Math.max(wait, retryAfterSeconds(both, FREE_FAILURES.addressAndEmail, now));
      }
      const account = retryAfterSeconds(await activity.failures({ email }, since), FREE_FAILURES.email, now);
      if (account > wait) {
        const known =
          ip && (await activity.succeededFrom({ ip, email }, new Date(now - KNOWN_ADDRESS_MS).toISOString()));
        if (!known) wait = account;
      }
    }
    if (wait > 0) throw new TooManyAttempts(wait);
  }
}
