import { createHash, randomUUID } from 'node:crypto';
import type { EventBus } from '../events/bus.js';
import type { SessionRepository } from '../domain/ports.js';
import type { SessionCutoffs } from '../domain/account.js';
import type { ClientInfo } from './authentication-activity.js';

/** Idle timeout, as Komga's `server.servlet.session.timeout` (7 days). */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/**
 * A session whose id the client never presented back ends after this much idle time. Clients that keep the
 * cookie or X-Auth-Token present it on their very next call; one that does not (HTTP Basic on every call)
 * would otherwise leave a row a week for each request.
 */
export const UNCONFIRMED_IDLE_MS = 10 * 60_000;
/** The last access date is written at most this often, so a busy session costs one write a minute. */
const TOUCH_EVERY_MS = 60_000;

export const hashSessionId = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

/**
 * Server sessions, kept in the database so that every instance sees them. The raw id only ever exists
 * in the client's cookie or X-Auth-Token header; the table holds its SHA-256.
 *
 * A session is opened by every login (HTTP Basic, remember-me, set-cookie) and is *unconfirmed* until the
 * client presents its id. Opening one first removes the user's unconfirmed sessions from the same client
 * (address and user agent): that client did not keep them. A client that sends Basic on every call thus
 * keeps a single row, replaced at each call, and a client that keeps the cookie (Komga's web UI, Mihon) or
 * the X-Auth-Token confirms its session on its next call and keeps it. Sessions end after 7 idle days
 * (10 minutes while unconfirmed), and in any case `lifetimeMs` after they were opened.
 */
export class Sessions {
  constructor(
    private readonly d: { sessions: SessionRepository; events: EventBus; now: () => number; lifetimeMs: number },
  ) {}

  /** Opens a session for this client and returns its raw id. */
  async open(userId: string, client: ClientInfo): Promise<string> {
    const id = randomUUID();
    const now = new Date(this.d.now()).toISOString();
    await this.d.sessions.deleteUnconfirmedOf(userId, client);
    await this.d.sessions.deleteExpired(this.cutoffs(), userId);
    await this.d.sessions.insert({
      idHash: hashSessionId(id),
      userId,
      createdDate: now,
      lastAccessDate: now,
      confirmed: false,
      ip: client.ip,
      userAgent: client.userAgent,
    });
    return id;
  }

  /** The user of a live session, refreshing its idle timer; undefined when unknown or over. */
  async resolve(id: string): Promise<string | undefined> {
    if (!id) return undefined;
    const idHash = hashSessionId(id);
    const session = await this.d.sessions.find(idHash);
    if (!session) return undefined;
    const cutoffs = this.cutoffs();
    const idleBefore = session.confirmed ? cutoffs.idleBefore : cutoffs.unconfirmedBefore;
    if (session.lastAccessDate < idleBefore || session.createdDate < cutoffs.createdBefore) {
      await this.d.sessions.delete(idHash);
      return undefined;
    }
    const now = this.d.now();
    if (!session.confirmed || now - Date.parse(session.lastAccessDate) >= TOUCH_EVERY_MS)
      await this.d.sessions.touch(idHash, new Date(now));
    return session.userId;
  }

  async close(id: string): Promise<void> {
    if (id) await this.d.sessions.delete(hashSessionId(id));
  }

  /**
   * Ends every session of the user, except `keepId` when given, and tells his clients (api.md §2.11): event
   * streams whose session is still alive ignore the event (see http/routes/sse.ts).
   */
  async expireAll(userId: string, keepId?: string): Promise<void> {
    await this.d.sessions.deleteByUser(userId, keepId ? hashSessionId(keepId) : undefined);
    this.d.events.emit({ type: 'SessionExpired', data: { userId } });
  }

  /** Removes every session that is over; returns how many. */
  purgeExpired(): Promise<number> {
    return this.d.sessions.deleteExpired(this.cutoffs());
  }

  private cutoffs(): SessionCutoffs {
    const now = this.d.now();
    const before = (ms: number) => new Date(now - ms).toISOString();
    return {
      idleBefore: before(SESSION_IDLE_MS),
      unconfirmedBefore: before(UNCONFIRMED_IDLE_MS),
      createdBefore: before(this.d.lifetimeMs),
    };
  }
}
