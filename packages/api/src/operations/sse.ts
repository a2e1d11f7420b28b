import { binary, defineOperation } from './operation.js';

/**
 * Live events (api.md §6): one text/event-stream per client, narrowed to what its user may see. Komga serves it
 * but leaves it out of its document, so it carries a Quire tag.
 */
export const sseOperations = {
  getServerSentEvents: defineOperation({
    operationId: 'getServerSentEvents',
    method: 'GET',
    path: '/sse/v1/events',
    tags: ['Quire', 'Server-sent events'],
    summary: 'Live events',
    access: 'user',
    responses: { 200: binary('text/event-stream: one event per change the user may see, and heartbeats') },
    produces: ['text/event-stream'],
  }),
};
