import { JSON_FEED_VERSION } from '@quire/api';
import type { announcementOperations, releaseOperations } from '@quire/api/operations';
import type { AnnouncementService } from '../../updates/announcements.js';
import type { Release } from '../../updates/releases.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

export interface UpdateRouteDeps {
  announcements: Pick<AnnouncementService, 'forUser' | 'markRead'>;
  releases: readonly Release[];
}

/**
 * Announcements and releases (api.md §9.2, §9.3), ADMIN only. Komga fetches both from the internet at request
 * time; Quire never does: announcements come from the copy of the configured feed the scheduler keeps in the
 * database (empty when none is configured or none was fetched yet), releases from the CHANGELOG.md of the build.
 */
export function updateHandlers({
  announcements,
  releases,
}: UpdateRouteDeps): Handlers<OperationIdsOf<typeof announcementOperations & typeof releaseOperations>> {
  return {
    getAnnouncements: async (req) => ({ version: JSON_FEED_VERSION, ...(await announcements.forUser(req.user.id)) }),
    markAnnouncementsRead: async (req, reply) => {
      await announcements.markRead(req.user.id, req.body);
      return reply.code(204).send();
    },
    getReleases: async () => [...releases],
  };
}
