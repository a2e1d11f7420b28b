import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

const ETAG_PREFIX = /^\/(api|opds|kobo)(\/|$|\?)/i;
/** Streamed downloads Komga excludes from its ETag filter (api.md §1.7). */
const EXCLUDED = [
  /^\/api\/v1\/(books|series|readlists)\/[^/]+\/file(\/|$|\?)/i,
  /^\/opds\/v1\.2\/books\/[^/]+\/file(\/|$|\?)/i,
  /^\/kobo\/[^/]+\/v1\/books\/[^/]+\/file(\/|$|\?)/i,
];

/**
 * Spring's ShallowEtagHeaderFilter as Komga configures it (api.md §1.7): a GET/HEAD 2xx response under
 * `/api`, `/opds` or `/kobo` whose body is in memory gets a strong `ETag: "0<md5-hex>"`, and an
 * `If-None-Match` that matches it turns the response into an empty 304. Streams are left alone, and a route that
 * set its own ETag (see {@link contentEtag}) is not hashed.
 */
export const etagPlugin: FastifyPluginAsync = fp(async (app) => {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    if (!ETAG_PREFIX.test(req.url) || EXCLUDED.some((re) => re.test(req.url))) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (/no-store/i.test(String(reply.getHeader('cache-control') ?? ''))) return payload;

    let etag = reply.getHeader('etag') as string | undefined;
    if (!etag) {
      etag = `"0${createHash('md5').update(payload).digest('hex')}"`;
      reply.header('etag', etag);
    }
    if (matches(req.headers['if-none-match'], etag)) return notModified(reply);
    return payload;
  });
});

/**
 * A strong ETag in Komga's shape (`"0<md5-hex>"`) for a body that is streamed or made on demand, from what
 * identifies its content instead of its bytes: hashing a page means holding or reading all of it (issue 11: a
 * 3 MB ZIP whose page inflates to 256 MiB). Routes set it, and answer `If-None-Match` with {@link matches},
 * before producing the body.
 */
export function contentEtag(identity: readonly (string | number | null)[]): string {
  return `"0${createHash('md5').update(JSON.stringify(identity)).digest('hex')}"`;
}

/** Whether an `If-None-Match` header matches `etag` (weak comparison, as Spring's filter does; `*` matches all). */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || bare(tag) === wanted;
  });
}

function notModified(reply: FastifyReply) {
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return '';
}
