import type { oauth2Operations } from '@quire/api/operations';
import type { Handlers, OperationIdsOf } from '../operations.js';

/**
 * The OAuth2/OIDC providers the login page offers (api.md §2.7). Quire has no OAuth2 login yet, so the true answer
 * is that none is configured.
 */
export function oauth2Handlers(): Handlers<OperationIdsOf<typeof oauth2Operations>> {
  return { getOAuth2Providers: async () => [] };
}
