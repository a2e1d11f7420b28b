import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../app/providers';
import { stubFetch } from '../features/account/fetch-stub';
import { buildLibrary } from '../test/fixtures';
import { LIBRARIES_FRESH_MS, useLibraries } from './libraries';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function LibraryNames({ label }: { label: string }) {
  const { data } = useLibraries();
  return <p>{`${label}: ${(data ?? []).map((l) => l.name).join(', ')}`}</p>;
}

/** The shell's parts as they mount during a page's first second: the guard first, the drawer and screen after. */
function Shell() {
  const [later, setLater] = useState(false);
  return (
    <>
      <LibraryNames label="guard" />
      <button onClick={() => setLater(true)}>mount</button>
      {later && <LibraryNames label="drawer" />}
      {later && <LibraryNames label="screen" />}
    </>
  );
}

/**
 * The shell with the app's own query client and its defaults (the screens' tests seed data that never goes stale),
 * once its first part shows the list; and the number of times the list has been asked for.
 */
async function openShell() {
  const { requests } = stubFetch({ 'GET /api/v1/libraries': { json: [buildLibrary({ name: 'Comics' })] } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Shell />
    </QueryClientProvider>,
  );
  await screen.findByText('guard: Comics');
  return { user, libraryRequests: () => requests.filter((r) => r.path === '/api/v1/libraries').length };
}

describe('the library list', () => {
  it('is asked for once while the parts of a screen mount one after another', async () => {
    const { user, libraryRequests } = await openShell();

    await user.click(screen.getByRole('button', { name: 'mount' }));
    expect(screen.getByText('drawer: Comics')).toBeInTheDocument();
    expect(screen.getByText('screen: Comics')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(libraryRequests()).toBe(1);
  });

  it('is asked for again by a part that mounts once the list is older than its freshness', async () => {
    const { user, libraryRequests } = await openShell();
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + LIBRARIES_FRESH_MS + 1);

    await user.click(screen.getByRole('button', { name: 'mount' }));
    await waitFor(() => expect(libraryRequests()).toBe(2));
  });
});
