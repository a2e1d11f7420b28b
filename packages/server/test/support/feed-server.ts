import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the feed server answers: a JSON value (sent as JSON), or a handler that writes the answer itself. */
export type FeedAnswer = object | string | ((res: ServerResponse) => void);

export interface FeedServer {
  url: string;
  /** How many requests it received. */
  requests: number;
  /** Changes what the next requests get. */
  answer(next: FeedAnswer): void;
  close(): Promise<void>;
}

/** A JSON Feed server on loopback, started by the test: the announcements' far end, under the test's control. */
export async function startFeedServer(initial: FeedAnswer): Promise<FeedServer> {
  let current = initial;
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((_req, res) => {
    feed.requests++;
    if (typeof current === 'function') return (current as (res: ServerResponse) => void)(res);
    res.writeHead(200, { 'content-type': 'application/feed+json' }).end(JSON.stringify(current));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const feed: FeedServer = {
    url: `http://127.0.0.1:${port}/feed.json`,
    requests: 0,
    answer: (next) => (current = next),
    close: () =>
      new Promise<void>((resolve) => {
        // A slow answer in progress would keep the server open.
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return feed;
}

/** A JSON Feed with these items. */
export const jsonFeed = (items: object[]) => ({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'Quire news',
  home_page_url: 'https://example.org/news',
  items,
});

/** An item whose HTML carries a script, an event handler and a link: what the screen must render inert. */
export const HOSTILE_ITEM = {
  id: 'https://example.org/news/hostile',
  url: 'https://example.org/news/hostile',
  title: 'An item with a script',
  content_html:
    '<p id="hostile-text">Read the <a href="https://example.org/notes">notes</a>.</p>' +
    '<script>window.__announcementScriptRan = true</script>' +
    '<img src="x" onerror="window.__announcementHandlerRan = true">',
  date_published: '2026-11-20T10:00:00Z',
  tags: ['news'],
};
