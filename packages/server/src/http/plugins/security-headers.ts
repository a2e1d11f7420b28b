import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

const CSP = 'content-security-policy';

/**
 * Every answer that is not the web client's page or a publication resource: JSON, errors, images, downloads,
 * events, the client's scripts. Opened on its own in a browser, none of them may load or run anything.
 */
const DEFAULT_POLICY = "default-src 'none'; frame-ancestors 'self'; sandbox";

/**
 * A file from inside an EPUB (`/books/{id}/resource/**`), written by whoever made the book: the reference's
 * `script-src 'none'; object-src 'none'` (api.md §2.8), and a sandbox that gives the document an origin of its
 * own, so that one opened on its own (an XHTML page, an SVG) can neither run a script nor act on the server's
 * origin. The web reader does not load these URLs as documents (see webClientPolicy), so it is not affected.
 */
export const PUBLICATION_RESOURCE_POLICY =
  "default-src 'self' data:; script-src 'none'; object-src 'none'; form-action 'none'; frame-ancestors 'self'; sandbox";

/**
 * The web client's page. Scripts: only those carrying this page's nonce (index.html's, and the modules they
 * import, which inherit it) and blob: URLs (the scripts the Readium navigator writes into a book's frame). No
 * inline script, no script from any other URL of the server: the book frames of the EPUB reader are blob:
 * documents, which inherit this policy, so a book's own scripts (inline, event handlers, javascript: links, or
 * files of the book) never run in them. Styles may be inline: MUI/emotion writes `<style>` elements, and
 * books and ReadiumCSS use inline styles in their frames.
 */
export function webClientPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' blob:`,
    "style-src 'self' 'unsafe-inline' blob:",
    "img-src 'self' data: blob:",
    "font-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "connect-src 'self'",
    'frame-src blob:',
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** A fresh nonce for one web client page, with its policy set on the reply. */
export function setWebClientPolicy(reply: FastifyReply): string {
  const nonce = randomBytes(18).toString('base64');
  reply.header(CSP, webClientPolicy(nonce));
  return nonce;
}

/**
 * Security headers on every answer (OWASP ASVS V14.4), set before anything else runs so that errors, 304s and
 * the hijacked event stream carry them too. Routes that serve documents replace the policy: the web client's
 * page (setWebClientPolicy) and publication resources (PUBLICATION_RESOURCE_POLICY).
 */
export const securityHeadersPlugin: FastifyPluginAsync = fp(async (app) => {
  app.addHook('onRequest', async (_req, reply) => setSecurityHeaders(reply));
});

/** The headers themselves; also used for the few errors Fastify answers before any hook (app.ts). */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header(CSP, DEFAULT_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'SAMEORIGIN');
  reply.header('referrer-policy', 'same-origin');
}
