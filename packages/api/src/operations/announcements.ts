import { Type } from 'typebox';
import { JsonFeedDto } from '../updates.js';
import { defineOperation, noContent } from './operation.js';

/**
 * Announcements (api.md §9.2), ADMIN only. Komga fetches its feed from the internet when asked; Quire answers from
 * the copy it fetched in the background from the feed its operator configured (README, "Announcements").
 */
export const announcementOperations = {
  getAnnouncements: defineOperation({
    operationId: 'getAnnouncements',
    method: 'GET',
    path: '/api/v1/announcements',
    tags: ['Announcements'],
    summary: 'Retrieve announcements',
    access: 'ADMIN',
    responses: { 200: JsonFeedDto },
  }),
  markAnnouncementsRead: defineOperation({
    operationId: 'markAnnouncementsRead',
    method: 'PUT',
    path: '/api/v1/announcements',
    tags: ['Announcements'],
    summary: 'Mark announcements as read',
    access: 'ADMIN',
    // Komga reads the ids into a set: a repeated id is dropped, not refused (so no uniqueItems here).
    body: Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 1000 }),
    responses: noContent,
  }),
};
