import { createHash, randomUUID } from 'node:crypto';
import type { EventBus } from '../events/bus.js';
import type { SessionRepository } from '../db/repositories/sessions.js';

/** Idle timeout, as Komga's `server.servlet.session.timeout` (7 days). */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** The last access date is written at most this often, so a busy session costs one write a minute. */
const TOUCH_EVERY_MS = 60_000;

export const hashSessionId = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

/**
 * Server sessions, kept in the database so that every instance sees them. The raw id only ever exists
 * in the client's cookie or X-Auth-Token header; the table holds its SHA-256.
 */
export class Sessions {
  constructor(private readonly d: { sessions: SessionRepository; events: EventBus; now: () => number }) {}

  /** Opens a session and returns its raw id. */
  async open(userId: string): Promise<string> {
    const id = randomUUID();
    const now = new Date(this.d.now()).toISOString();
    await this.d.sessions.insert({ idHash: hashSessionId(id), userId, createdDate: now, lastAccessDate: now });
    return id;
  }

  /** The user of a live session, refreshing its idle timer; undefined when unknown or idle too long. */
  async resolve(id: string): Promise<string | undefined> {
    if (!id) return undefined;
    const idHash = hashSessionId(id);
    const session = await this.d.sessions.find(idHash);
    if (!session) return undefined;
    const now = this.d.now();
    const last = Date.parse(session.lastAccessDate);
    if (now - last > SESSION_IDLE_MS) {
      await this.d.sessions.delete(idHash);
      return undefined;
    }
    if (now - last >= TOUCH_EVERY_MS) await this.d.sessions.touch(idHash, new Date(now).toISOString());
    return session.userId;
  }

  async close(id: string): Promise<void> {
    if (id) await this.d.sessions.delete(hashSessionId(id));
  }

  /** Ends every session of the user and tells his clients (api.md §2.11). */
  async expireAll(userId: string): Promise<void> {
    await this.d.sessions.deleteByUser(userId);
    this.d.events.emit({ type: 'SessionExpired', data: { userId } });
  }

  async purgeIdle(): Promise<number> {
    return this.d.sessions.deleteIdleSince(new Date(this.d.now() - SESSION_IDLE_MS).toISOString());
  }
}
