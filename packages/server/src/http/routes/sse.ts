import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { QuireEvent } from '@quire/api';
import type { Operations, sseOperations } from '@quire/api/operations';
import type { Authenticator } from '../../accounts/authenticator.js';
import type { EventBus } from '../../events/bus.js';
import { eventFor, type VisibleContent } from '../../events/audience.js';
import type { VisibilityQueries } from '../../db/queries/visibility.js';
import type { Handlers, OperationIdsOf, OperationRequest } from '../operations.js';

const HEARTBEAT_MS = 15_000;
/** Spring's async request timeout: clients reconnect after it. */
const STREAM_LIFETIME_MS = 60 * 60 * 1000;

export interface SseRouteDeps {
  events: Pick<EventBus, 'subscribe'>;
  visibility: Pick<VisibilityQueries, 'series' | 'books' | 'collection' | 'readList'>;
  sessions: Pick<Authenticator, 'session'>;
}

/**
 * `GET /sse/v1/events` (api.md §6): one text/event-stream per client, fed from the event bus and narrowed
 * to what its user may see (events/audience.ts). `closeAll` completes every stream; the server calls it when it
 * closes.
 */
export function eventStreams(deps: SseRouteDeps): {
  handlers: Handlers<OperationIdsOf<typeof sseOperations>>;
  closeAll(): void;
} {
  const open = new Set<() => void>();
  const stillOpen = async (sessionId: string) => (await deps.sessions.session(sessionId)) !== undefined;
  return {
    handlers: {
      getServerSentEvents: { handler: (req, reply) => stream(req, reply), options: { exposeHeadRoute: false } },
    },
    closeAll: () => {
      for (const end of [...open]) end();
    },
  };

  async function stream(req: OperationRequest<Operations['getServerSentEvents']>, reply: FastifyReply) {
    const user = req.user;
    const res = reply.raw;
    reply.hijack();
    // Headers other hooks set (security headers…) travel with the hijacked response.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
    res.writeHead(200, {
      'content-type': 'text/event-stream;charset=UTF-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.flushHeaders();

    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      open.delete(end);
      unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      if (!res.writableEnded) res.end();
    };
    open.add(end);

    const content: VisibleContent = {
      series: (ids) => deps.visibility.series(user, ids),
      books: (ids) => deps.visibility.books(user, ids),
      collection: (id) => deps.visibility.collection(user, id),
      readList: (id) => deps.visibility.readList(user, id),
    };
    /** One event, once the ones before it are out: deciding may need the database, the order must hold. */
    const deliver = async (event: QuireEvent) => {
      if (ended) return;
      const narrowed = await eventFor(event, user, content);
      if (!narrowed) return;
      // A password change ends the user's other sessions and keeps the one it was made from.
      if (narrowed.type === 'SessionExpired' && user.sessionId && (await stillOpen(user.sessionId))) return;
      if (ended) return;
      write(res, `event:${narrowed.type}\ndata:${JSON.stringify(narrowed.data)}\n\n`);
      // The client logs out on SessionExpired; this stream's credentials are gone, so it ends here.
      if (narrowed.type === 'SessionExpired') end();
    };
    let queue = Promise.resolve();
    const unsubscribe = deps.events.subscribe((event) => {
      queue = queue.then(() => deliver(event)).catch((err: unknown) => req.log.warn({ err }, 'live event not sent'));
    });
    const heartbeat = setInterval(() => write(res, ':heartbeat\n\n'), HEARTBEAT_MS);
    const lifetime = setTimeout(end, STREAM_LIFETIME_MS);
    heartbeat.unref();
    lifetime.unref();
    res.on('close', end);
    res.on('error', end);
    return reply;
  }
}

function write(res: ServerResponse, chunk: string) {
  if (!res.writableEnded && !res.destroyed) res.write(chunk);
}
