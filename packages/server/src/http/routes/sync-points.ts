import type { syncPointOperations } from '@quire/api/operations';
import type { KoboSync } from '../../reading/kobo-sync.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

/** `DELETE /api/v1/syncpoints/me` (api.md §8.2): the caller's Kobo sync points, all or those of some API keys. */
export function syncPointHandlers({ kobo }: { kobo: KoboSync }): Handlers<OperationIdsOf<typeof syncPointOperations>> {
  return {
    deleteSyncPointsForCurrentUser: async (req, reply) => {
      const keys = req.query.key_id?.length ? req.query.key_id : null;
      await kobo.forget(req.user.id, keys);
      return reply.code(204).send(null);
    },
  };
}
