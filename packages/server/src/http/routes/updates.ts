import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { JSON_FEED_VERSION, JsonFeedDto, ReleaseDto } from '@quire/api';
import type { AppDeps } from '../deps.js';

/**
 * Announcements and releases (api.md §9.2, §9.3), ADMIN only. Komga fetches both from the internet at request
 * time; Quire never does. Announcements: no feed is configured yet, so the feed is empty (what an offline Komga
 * answers). Releases: Quire's own release, the version this build is, flagged latest (the Komga UI compares it
 * with `/actuator/info`'s `build.version`); it has no release page or notes yet, so `url` and `description` are
 * empty. Its date is the commit the build was made from, or the build's own time outside a git checkout.
 */
export const updateRoutes: FastifyPluginAsync<AppDeps> = async (instance, { config }) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const admin = app.requireRole('ADMIN');

  app.get('/api/v1/announcements', { schema: { response: { 200: JsonFeedDto } }, onRequest: admin }, async () => ({
    version: JSON_FEED_VERSION,
    title: 'Announcements',
    items: [],
  }));

  app.get('/api/v1/releases', { schema: { response: { 200: Type.Array(ReleaseDto) } }, onRequest: admin }, async () => {
    const { version, time, git } = config.build;
    return [
      {
        version,
        releaseDate: git.commit.time ?? time,
        url: '',
        latest: true,
        // Semantic versioning: a hyphen starts a pre-release tag (1.0.0-beta.1).
        preRelease: version.includes('-'),
        description: '',
      },
    ];
  });
};
