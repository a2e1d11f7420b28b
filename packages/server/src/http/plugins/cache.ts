import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';

const DEFAULT_CACHE_CONTROL = 'max-age=0, must-revalidate, private';
const CACHED_PREFIX = /^\/(api|opds)(\/|$|\?)/i;

/**
 * api.md §1.7: every `/api/**` and `/opds/**` response says `Cache-Control: max-age=0, must-revalidate,
 * private` unless its handler chose its own (thumbnails of collections and read lists do).
 */
export const cacheControlPlugin: FastifyPluginAsync = fp(async (app) => {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!reply.hasHeader('cache-control') && CACHED_PREFIX.test(req.url)) {
      reply.header('cache-control', DEFAULT_CACHE_CONTROL);
    }
    return payload;
  });
});
