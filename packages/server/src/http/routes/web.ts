import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../plugins/errors.js';
import { setWebClientPolicy } from '../plugins/security-headers.js';
import type { AppDeps } from '../deps.js';

/** Paths that are never the web client: unknown ones answer a JSON 404 (api.md §10). */
const SERVER_PATHS = /^\/(api|opds|sse|actuator|kobo|koreader)(\/|$|\?)/i;
/** app.ts rewrites every request outside the context path to this. */
const OUTSIDE_CONTEXT_PATH = '/__outside_context_path__';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The web client's reader of comics and PDFs (packages/web/src/app/router.tsx). */
const READER_PATH = /^\/book\/([0-9A-Za-z]+)\/read(\?|$)/;
/** What the build writes where each page's script nonce goes (`html.cspNonce` in packages/web/vite.config.ts). */
export const NONCE_PLACEHOLDER = 'QUIRE_CSP_NONCE';

/**
 * The built web client (packages/web/dist) and the not-found handling of the whole server:
 * - unknown server paths (`/api`, `/opds`, `/sse`, `/actuator`, `/kobo`, `/koreader`) → Spring's JSON 404;
 * - requests outside the context path → 404;
 * - files of the build → served, `/assets/**` (hashed names) cached for a year, brotli or gzip when accepted;
 * - any other GET → `index.html` (history-mode routes), with `<base href="{contextPath}/">` injected at
 *   serve time: the client finds the API from it, and the build's relative asset URLs resolve against it;
 *   and a fresh script nonce, the only way a script runs on the page (plugins/security-headers.ts).
 */
export const webRoutes: FastifyPluginAsync<AppDeps & { contextPath: string }> = async (app, deps) => {
  const { webDir } = deps.config;
  const indexFile = join(webDir, 'index.html');
  const built = existsSync(indexFile);

  if (built) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      index: false,
      wildcard: true,
      // The build writes .br and .gz beside each asset (packages/web/vite.config.ts): sent with Content-Encoding
      // and Vary: Accept-Encoding to browsers that accept them.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        const relative = path.slice(webDir.length).replace(/\\/g, '/');
        reply.header('cache-control', relative.startsWith('/assets/') ? IMMUTABLE : 'no-cache');
      },
    });
    // Explicit routes win over the static wildcard, so index.html is never served raw.
    app.get('/', (req, reply) => sendIndex(req, reply));
    app.get('/index.html', (req, reply) => sendIndex(req, reply));
  }

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? req.url;
    if (path === OUTSIDE_CONTEXT_PATH || SERVER_PATHS.test(path)) {
      const message = path === OUTSIDE_CONTEXT_PATH ? 'Not Found' : `No static resource ${path.slice(1)}.`;
      return reply
        .code(404)
        .type('application/json')
        .send(errorBody(404, message, req.originalUrl));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return reply
        .code(404)
        .type('application/json')
        .send(errorBody(404, 'Not Found', req.originalUrl));
    }
    if (!built) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(`The Quire web client is not built (no ${indexFile}). Run \`npm run build\`, then restart the server.\n`);
    }
    // A missing hashed asset is a stale page asking for an old build: the index would only confuse it.
    if (path.startsWith('/assets/')) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not Found\n');
    }
    return sendIndex(req, reply);
  });

  /**
   * The page of a reader is being loaded: a PDF's renderer starts while the client does (issue 18: the first page
   * waited ~1 s for a new PDFium thread). Only a real PDF book's id does anything, and only within the PDF pool's
   * bounds (its threads, their idle timeout); who may read the book is checked when its pages are asked for.
   */
  function openingReader(req: FastifyRequest): void {
    const bookId = READER_PATH.exec(req.url)?.[1];
    if (!bookId) return;
    void deps.books.queries
      .findFile(bookId)
      .then((book) => book && deps.books.pages.openingReader(book))
      .catch(() => undefined);
  }

  async function sendIndex(req: FastifyRequest, reply: FastifyReply) {
    openingReader(req);
    // Read per request (a few KB): a rebuilt client is picked up without restarting the server.
    const html = await readFile(indexFile, 'utf8');
    const nonce = setWebClientPolicy(reply);
    // The page has no validator: a browser never revalidates it into an old nonce under a new policy.
    return reply
      .code(200)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(injectBase(html, deps.contextPath).replaceAll(NONCE_PLACEHOLDER, nonce));
  }
};

/** Puts `<base href="{contextPath}/">` first in `<head>`, replacing one the build may carry. */
export function injectBase(html: string, contextPath: string): string {
  const tag = `<base href="${escapeAttribute(`${contextPath}/`)}">`;
  const withoutBase = html.replace(/<base\b[^>]*>\s*/i, '');
  if (/<head\b[^>]*>/i.test(withoutBase)) return withoutBase.replace(/<head\b[^>]*>/i, (head) => `${head}\n    ${tag}`);
  return `${tag}\n${withoutBase}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
