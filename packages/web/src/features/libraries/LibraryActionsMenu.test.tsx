import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary, buildUser } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

/** The library actions sent (the library page behind the menu makes requests of its own). */
const libraryActions = (requests: { method: string; path: string }[]) =>
  requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/v1/libraries/'));

async function openMenu(answers: Parameters<typeof stubFetch>[0] = {}) {
  const net = stubFetch({ 'GET /api/v1/libraries': { json: [buildLibrary()] }, ...answers });
  const app = renderScreen(null, { user: buildAdmin(), libraries: [buildLibrary()], route: '/libraries/lib-1' });
  await app.user.click(await screen.findByRole('button', { name: 'Open navigation' }));
  await app.user.click(await screen.findByRole('button', { name: 'Actions for Comics' }));
  return { ...app, ...net };
}

describe('LibraryActionsMenu', () => {
  it('is hidden from non-admins, as is Add library', async () => {
    stubFetch({});
    const app = renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/dashboard' });
    await app.user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    const nav = await screen.findByRole('navigation', { name: 'Navigation' });
    expect(within(nav).getByRole('link', { name: 'Comics' })).toBeInTheDocument();
    expect(within(nav).queryByRole('button', { name: 'Actions for Comics' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('button', { name: 'Add library' })).not.toBeInTheDocument();
  });

  it('lists every action for admins', async () => {
    await openMenu();
    const items = screen.getAllByRole('menuitem').map((i) => i.textContent);
    expect(items).toEqual([
      'Scan library files',
      'Scan library files (deep)',
      'Analyze',
      'Refresh metadata',
      'Empty trash',
      'Edit',
      'Delete',
    ]);
  });

  it.each([
    ['Scan library files', '?deep=false', 'Scan of Comics queued'],
    ['Scan library files (deep)', '?deep=true', 'Deep scan of Comics queued'],
  ])('%s queues at once', async (item, search, toast) => {
    const { user, requests } = await openMenu({ 'POST /api/v1/libraries/lib-1/scan': { status: 202 } });
    await user.click(screen.getByRole('menuitem', { name: item }));
    expect(await screen.findByText(toast)).toBeInTheDocument();
    expect(libraryActions(requests)[0]).toMatchObject({ path: '/api/v1/libraries/lib-1/scan', search });
  });

  it.each([
    ['Analyze', 'Analyze library', 'Analyze', '/api/v1/libraries/lib-1/analyze', 'Analysis of Comics queued'],
    [
      'Refresh metadata',
      'Refresh metadata',
      'Refresh',
      '/api/v1/libraries/lib-1/metadata/refresh',
      'Metadata refresh of Comics queued',
    ],
    [
      'Empty trash',
      'Empty trash',
      'Empty',
      '/api/v1/libraries/lib-1/empty-trash',
      'Emptying the trash of Comics queued',
    ],
  ])('%s asks first', async (item, title, button, path, toast) => {
    const { user, requests } = await openMenu({ [`POST ${path}`]: { status: 202 } });
    await user.click(screen.getByRole('menuitem', { name: item }));
    const dialog = await screen.findByRole('dialog', { name: title });
    expect(libraryActions(requests)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: button }));
    expect(await screen.findByText(toast)).toBeInTheDocument();
    expect(libraryActions(requests).map((r) => r.path)).toEqual([path]);
  });

  it('deletes only after the acknowledgement, then leaves the library', async () => {
    const { user, requests, location } = await openMenu({ 'DELETE /api/v1/libraries/lib-1': { status: 204 } });
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete library' });
    expect(dialog).toHaveTextContent('Your media files will not be affected');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Yes, delete the library "Comics"' }));
    await user.click(confirm);
    expect(await screen.findByText('Library Comics deleted')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/v1/libraries/lib-1']);
    await waitFor(() => expect(location()).not.toMatch(/^\/libraries\/lib-1/));
  });
});
