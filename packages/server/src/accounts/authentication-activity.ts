import { newId } from '../domain/ids.js';
import { forbidden, notFound } from '../domain/errors.js';
import { isAdmin, type CurrentUser } from '../domain/user.js';
import type { AuthenticationActivityRepository } from '../domain/ports.js';
import type { ActivityPageRequest, AuthenticationSource, StoredActivity } from '../domain/account.js';

/** Rows older than this are purged (api.md §2.9: one month). */
export const ACTIVITY_RETENTION_DAYS = 31;

/** Where an attempt came from. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface ActivityEntry {
  source: AuthenticationSource;
  success: boolean;
  userId?: string | null;
  email?: string | null;
  apiKeyId?: string | null;
  apiKeyComment?: string | null;
  error?: string | null;
}

/** The record of every authentication attempt, and its reading by users and admins. */
export class AuthenticationActivity {
  constructor(private readonly d: { activity: AuthenticationActivityRepository; now: () => number }) {}

  async record(entry: ActivityEntry, client: ClientInfo): Promise<void> {
    const now = this.d.now();
    await this.d.activity.insert({
      id: newId(now),
      userId: entry.userId ?? null,
      email: entry.email ?? null,
      apiKeyId: entry.apiKeyId ?? null,
      apiKeyComment: entry.apiKeyComment ?? null,
      ip: client.ip,
      userAgent: client.userAgent,
      success: entry.success,
      error: entry.error ?? null,
      source: entry.source,
      dateTime: new Date(now).toISOString(),
    });
  }

  /** Everyone's activity (the route requires ADMIN). */
  all(page: Omit<ActivityPageRequest, 'userId'>) {
    return this.d.activity.page(page);
  }

  ofUser(userId: string, page: Omit<ActivityPageRequest, 'userId'>) {
    return this.d.activity.page({ ...page, userId });
  }

  /** The user's latest activity, optionally for one API key; ADMIN or self; 404 when none. */
  async latest(actor: CurrentUser, userId: string, apiKeyId?: string): Promise<StoredActivity> {
    if (actor.id !== userId && !isAdmin(actor)) throw forbidden();
    return (await this.d.activity.latest(userId, apiKeyId)) ?? Promise.reject(notFound());
  }

  async purge(): Promise<number> {
    const cutoff = new Date(this.d.now() - ACTIVITY_RETENTION_DAYS * 24 * 3600_000).toISOString();
    return this.d.activity.deleteBefore(cutoff);
  }
}
