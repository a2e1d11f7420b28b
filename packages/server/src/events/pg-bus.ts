import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { QuireEvent } from '@quire/api';
import type { EventBus } from './bus.js';

/** What the PostgreSQL bus needs of the database (db/cluster.ts `ClusterStore` gives it). */
export interface NotificationTransport {
  openChannel(
    channel: string,
    onPayload: (payload: string) => void,
    onError: (err: unknown) => void,
  ): Promise<{
    publish(payload: string): Promise<void>;
    close(): Promise<void>;
  }>;
  storePayload(payload: string): Promise<string>;
  readPayload(id: string): Promise<string | undefined>;
  dropPayloadsOlderThan(ms: number): Promise<void>;
}

export interface PgEventBus extends EventBus {
  close(): Promise<void>;
}

/**
 * NOTIFY refuses payloads of 8000 bytes or more; above this the notification carries the id of a row holding
 * the event instead.
 */
export const NOTIFY_LIMIT = 7_900;
/** Stored payloads are read within moments; an hour covers a listener that was busy. */
const PAYLOAD_LIFETIME_MS = 60 * 60_000;

/**
 * Events every instance emits for itself from shared state: the queue's counts are the same everywhere, so each
 * instance's own status reaches its own clients and is not sent to the others (which would multiply it).
 */
const LOCAL_ONLY: ReadonlySet<QuireEvent['type']> = new Set(['TaskQueueStatus']);

/** A notification: the sending instance, and the event or the id of the row holding it. */
type Wire = { from: string; event: QuireEvent } | { from: string; ref: string };

/**
 * The event bus when several instances share a PostgreSQL database (issue 20): every event reaches this instance's
 * subscribers at once, as the in-process bus does, and goes out on a LISTEN/NOTIFY channel to every other instance,
 * whose subscribers receive it as if it had been emitted there (an SSE client connected to any instance sees every
 * change). An instance ignores its own notifications, so a local subscriber gets each event once. Order: an
 * instance publishes one event at a time (each NOTIFY is committed before the next is sent), and each instance
 * handles what it receives one notification at a time (reading a stored payload included), so the events of one
 * instance arrive everywhere in the order they were emitted, and so in order per entity.
 */
export async function createPgEventBus(
  transport: NotificationTransport,
  opts: { logger: { warn(obj: object, msg: string): void }; instanceId?: string; channel?: string },
): Promise<PgEventBus> {
  const instanceId = opts.instanceId ?? randomBytes(6).toString('hex');
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let incoming = Promise.resolve();
  let outgoing = Promise.resolve();

  async function receive(text: string) {
    const wire = JSON.parse(text) as Wire;
    if (wire.from === instanceId) return;
    if ('event' in wire) return void local.emit('event', wire.event);
    const stored = await transport.readPayload(wire.ref);
    if (stored === undefined)
      opts.logger.warn({ ref: wire.ref }, 'An event from another instance was gone before it was read');
    else local.emit('event', JSON.parse(stored) as QuireEvent);
  }

  async function send(event: QuireEvent) {
    const text = JSON.stringify({ from: instanceId, event } satisfies Wire);
    if (Buffer.byteLength(text) <= NOTIFY_LIMIT) return channel.publish(text);
    const ref = await transport.storePayload(JSON.stringify(event));
    await channel.publish(JSON.stringify({ from: instanceId, ref } satisfies Wire));
  }

  const channel = await transport.openChannel(
    opts.channel ?? 'quire_events',
    (text) => {
      incoming = incoming
        .then(() => receive(text))
        .catch((err: unknown) => opts.logger.warn({ err }, 'Could not read an event from another instance'));
    },
    (err) => opts.logger.warn({ err }, "Lost the connection that receives other instances' events; listening again"),
  );
  const sweeper = setInterval(
    () => void transport.dropPayloadsOlderThan(PAYLOAD_LIFETIME_MS).catch(() => undefined),
    10 * 60_000,
  );
  sweeper.unref();

  return {
    emit(event) {
      local.emit('event', event);
      if (LOCAL_ONLY.has(event.type)) return;
      outgoing = outgoing
        .then(() => send(event))
        .catch((err: unknown) =>
          opts.logger.warn({ err, type: event.type }, 'Could not send an event to other instances'),
        );
    },
    subscribe(listener) {
      local.on('event', listener);
      return () => local.off('event', listener);
    },
    async close() {
      clearInterval(sweeper);
      await outgoing;
      await channel.close();
    },
  };
}
