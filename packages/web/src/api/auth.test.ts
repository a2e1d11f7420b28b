import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../app/providers';
import { authKeys, forgetSession } from './auth';
import { libraryKeys } from './libraries';

describe('forgetting the session', () => {
  it("drops the previous user's answers, and the screen already shown asks again for what it was waiting on", async () => {
    const qc = createQueryClient();
    qc.setQueryData(libraryKeys.list(), [{ id: 'l1', name: "the previous user's library" }]);
    // the login page, mounted before the logout's answer, its request still on the way
    let asked = 0;
    const onScreen = new QueryObserver(qc, {
      queryKey: ['oauth2', 'providers'],
      queryFn: async () => {
        asked++;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return ['keycloak'];
      },
    });
    const unsubscribe = onScreen.subscribe(() => undefined);
    expect(onScreen.getCurrentResult().fetchStatus).toBe('fetching');

    forgetSession(qc);

    expect(qc.getQueryData(libraryKeys.list())).toBeUndefined();
    expect(qc.getQueryData(authKeys.me)).toBeNull();
    // before, the request was cancelled and its query dropped from the cache: pending for ever
    await vi.waitFor(() => expect(onScreen.getCurrentResult().data).toEqual(['keycloak']));
    expect(asked).toBe(2);
    unsubscribe();
  });
});
