import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JsonFeedDto, ReleaseDto } from '@quire/api';
import { client } from './client';

/**
 * Announcements and releases (api.md §9.2, §9.3; admins). The server answers both from what it holds (the feed's
 * copy it fetched in the background, its CHANGELOG), so these never wait on the internet.
 */
export const updateKeys = {
  announcements: ['announcements'] as const,
  releases: ['releases'] as const,
  info: ['actuator', 'info'] as const,
};

export const useAnnouncements = (enabled = true) =>
  useQuery({ queryKey: updateKeys.announcements, queryFn: () => client.get('/api/v1/announcements'), enabled });

/** Marks these items read for the signed-in admin, then reloads the feed (its read flags and the drawer's count). */
export function useMarkAnnouncementsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => client.put('/api/v1/announcements', { body: ids }),
    onSettled: () => qc.invalidateQueries({ queryKey: updateKeys.announcements }),
  });
}

export const unreadAnnouncements = (feed: JsonFeedDto | undefined) =>
  (feed?.items ?? []).filter((item) => !item._komga?.read);

export const useReleases = (enabled = true) =>
  useQuery({ queryKey: updateKeys.releases, queryFn: () => client.get('/api/v1/releases'), enabled });

/** `build.version` of the running server: the "currently installed" release. */
export const useActuatorInfo = (enabled = true) =>
  useQuery({ queryKey: updateKeys.info, queryFn: () => client.get('/actuator/info'), enabled });

/** ui.md §1.3: outdated when the installed version is not the release flagged latest. */
export function isOutdated(installed: string | undefined, releases: readonly ReleaseDto[] | undefined): boolean {
  const latest = releases?.find((r) => r.latest);
  return !!installed && !!latest && latest.version !== installed;
}

/** A link to follow out of the app: http(s) only (the server keeps no other, and a `javascript:` one would run). */
export const outboundUrl = (url: string | undefined) => (url && /^https?:\/\//i.test(url) ? url : undefined);
