import { JsonFeedDto } from '../updates.js';
import { defineOperation } from './operation.js';

/** Announcements (api.md §9.2), ADMIN only. Komga fetches its feed from the internet; Quire never does. */
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
};
