import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../test/render';
import { buildAdmin, buildLibrary, buildUser } from '../test/fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  document.title = '';
});

describe('route guards', () => {
  it('sends a signed-out user to startup with the full original path as redirect', async () => {
    // The startup check never answers, so the app stays on startup.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    const { location } = renderScreen(null, { user: null, route: '/libraries/lib-1/series?page=2&sort=name' });
    await waitFor(() =>
      expect(location()).toBe(`/startup?redirect=${encodeURIComponent('/libraries/lib-1/series?page=2&sort=name')}`),
    );
  });

  it('carries the redirect on to login when the session is gone', async () => {
    const { location } = renderScreen(null, { user: null, claim: { isClaimed: true }, route: '/account?tab=keys' });
    await screen.findByRole('button', { name: 'Log in' });
    expect(location()).toBe(`/login?redirect=${encodeURIComponent('/account?tab=keys')}`);
  });

  it('sends a non-admin on an admin route home', async () => {
    const { location } = renderScreen(null, {
      user: buildUser(),
      libraries: [buildLibrary()],
      route: '/settings/server',
    });
    // The first test of the file loads the dashboard's code: slow on a busy machine.
    await waitFor(() => expect(location()).toBe('/dashboard'));
  });

  it.each([
    '/settings',
    '/settings/users/add',
    '/settings/tasks',
    '/settings/metrics',
    '/media-management/duplicate-files',
  ])('sends a non-admin away from %s too', async (route) => {
    const { location } = renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route });
    await waitFor(() => expect(location()).toBe('/dashboard'));
  });

  it('follows admin redirects', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    const { location } = renderScreen(null, { user: buildAdmin(), libraries: [buildLibrary()], route: '/settings' });
    await waitFor(() => expect(location()).toBe('/settings/users'));
  });

  it('shows not found with a link home for an unknown path', async () => {
    const { user, location } = renderScreen(null, {
      user: buildUser(),
      libraries: [buildLibrary()],
      route: '/no/such/page',
    });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to home page' }));
    await waitFor(() => expect(location()).toBe('/dashboard'));
  });

  it('sends dashboard and library routes to welcome while there is no library', async () => {
    const { location } = renderScreen(null, { user: buildUser(), libraries: [], route: '/libraries/all/series' });
    expect(await screen.findByRole('heading', { name: 'Welcome to Quire' })).toBeInTheDocument();
    expect(location()).toBe('/welcome');
    expect(screen.getByText('Ask an administrator to add a library or to share one with you.')).toBeInTheDocument();
  });

  it('opens a library at its remembered view: browse for all libraries, recommended otherwise', async () => {
    const all = renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/libraries' });
    await waitFor(() => expect(all.location()).toBe('/libraries/all/series'));
    all.unmount();
    const one = renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/libraries/lib-1' });
    await waitFor(() => expect(one.location()).toBe('/libraries/lib-1/recommended'));
  });

  it('shows admin entries in the navigation to admins only', async () => {
    const admin = renderScreen(null, { user: buildAdmin(), libraries: [buildLibrary()], route: '/dashboard' });
    // jsdom has no media queries, so this is the phone layout: the drawer opens from the app bar.
    await admin.user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    const nav = await screen.findByRole('navigation', { name: 'Navigation' });
    expect(nav).toHaveTextContent('Server settings');
    expect(screen.getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/settings/users');
    expect(screen.getByRole('link', { name: 'Comics' })).toHaveAttribute('href', '/libraries/lib-1');
    expect(screen.getByRole('link', { name: 'Media management' })).toHaveAttribute('href', '/media-management');
    expect(screen.getByRole('link', { name: 'Tasks' })).toHaveAttribute('href', '/settings/tasks');
    admin.unmount();
    const reader = renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/dashboard' });
    await reader.user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    await screen.findByRole('navigation', { name: 'Navigation' });
    expect(screen.queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Media management' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute('href', '/history');
    expect(screen.getByRole('link', { name: 'Account' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('resets the title to the product name except on series, book and reader routes', async () => {
    document.title = 'Something';
    const { router } = renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/dashboard' });
    await waitFor(() => expect(document.title).toBe('Quire'));
    document.title = 'Series X - Quire';
    await router.navigate('/series/s1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/series/s1'));
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(document.title).toBe('Series X - Quire');
  });
});
