import type { Server } from 'node:http';

/** How long the responses under way get to finish once the server closes; then their connections are cut. */
export const DRAIN_MS = 10_000;

/**
 * Lets the responses under way finish when the server closes (a book download, a page, an API write's answer)
 * instead of cutting them as Fastify's `forceCloseConnections: true` does. `server.close()` closes only the
 * connections idle at that moment; a keep-alive connection whose response ends later would hold the close for
 * its whole keep-alive timeout, so idle connections are closed again every 100 ms. Whatever is still busy after
 * `graceMs` (a client that stopped reading) is cut, so that a shutdown always ends.
 */
export function drainConnections(server: Server, graceMs = DRAIN_MS): void {
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  server.once('close', () => {
    clearInterval(idle);
    clearTimeout(cut);
  });
}
