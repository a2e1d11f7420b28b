import type { claimOperations } from '@quire/api/operations';
import type { Accounts } from '../../accounts/index.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { toUserDto } from '../mappers/users.js';

export interface ClaimRouteDeps {
  users: Pick<Accounts['users'], 'isClaimed' | 'claim'>;
}

/** First run (api.md §2.4): public; the first user gets every role. Does not log the caller in. */
export function claimHandlers({ users }: ClaimRouteDeps): Handlers<OperationIdsOf<typeof claimOperations>> {
  return {
    getClaimStatus: async () => ({ isClaimed: await users.isClaimed() }),
    claimServer: async (req) =>
      toUserDto(await users.claim(req.headers['x-komga-email'], req.headers['x-komga-password'])),
  };
}
