import { JSON_FEED_VERSION } from '@quire/api';
import type { announcementOperations, releaseOperations } from '@quire/api/operations';
import type { Config } from '../../config.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

export interface UpdateRouteDeps {
  build: Config['build'];
}

/**
 * Announcements and releases (api.md §9.2, §9.3), ADMIN only. Komga fetches both from the internet at request
 * time; Quire never does. Announcements: no feed is configured yet, so the feed is empty (what an offline Komga
 * answers). Releases: Quire's own release, the version this build is, flagged latest (the Komga UI compares it
 * with `/actuator/info`'s `build.version`); it has no release page or notes yet, so `url` and `description` are
 * empty. Its date is the commit the build was made from, or the build's own time outside a git checkout.
 */
export function updateHandlers({
  build,
}: UpdateRouteDeps): Handlers<OperationIdsOf<typeof announcementOperations & typeof releaseOperations>> {
  return {
    getAnnouncements: async () => ({ version: JSON_FEED_VERSION, title: 'Announcements', items: [] }),
    getReleases: async () => [
      {
        version: build.version,
        releaseDate: build.git.commit.time ?? build.time,
        url: '',
        latest: true,
        // Semantic versioning: a hyphen starts a pre-release tag (1.0.0-beta.1).
        preRelease: build.version.includes('-'),
        description: '',
      },
    ],
  };
}
