import { Type, type Static } from 'typebox';

/**
 * Announcements and releases (api.md §9.2, §9.3), ADMIN only: what the Komga UI's Updates and Announcements
 * screens read. Komga fetches both from the internet; Quire answers from what it holds (README, "API").
 */

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1';

export const JsonFeedItemDto = Type.Object({
  id: Type.String(),
  url: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  summary: Type.Optional(Type.String()),
  content_html: Type.Optional(Type.String()),
  date_modified: Type.Optional(Type.String()),
  author: Type.Optional(Type.Object({ name: Type.Optional(Type.String()), url: Type.Optional(Type.String()) })),
  tags: Type.Array(Type.String()),
  _komga: Type.Optional(Type.Object({ read: Type.Boolean() })),
});
export type JsonFeedItemDto = Static<typeof JsonFeedItemDto>;

export const JsonFeedDto = Type.Object({
  version: Type.String(),
  title: Type.String(),
  home_page_url: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  items: Type.Array(JsonFeedItemDto),
});
export type JsonFeedDto = Static<typeof JsonFeedDto>;

export const ReleaseDto = Type.Object({
  version: Type.String(),
  releaseDate: Type.String(),
  url: Type.String(),
  latest: Type.Boolean(),
  preRelease: Type.Boolean(),
  description: Type.String(),
});
export type ReleaseDto = Static<typeof ReleaseDto>;
