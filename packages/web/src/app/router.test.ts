import { afterEach, describe, expect, it } from 'vitest';
import { createAppRouter } from './router';

afterEach(() => {
  document.querySelector('base')?.remove();
  window.history.replaceState(null, '', '/');
});

/** Where the router made for the page's current address starts: its innermost route, and the page's address. */
function startAt(address: string): { route: string | undefined; page: string } {
  window.history.replaceState(null, '', address);
  const router = createAppRouter();
  try {
    const { pathname, search, hash } = window.location;
    return { route: router.state.matches.at(-1)?.route.path, page: `${pathname}${search}${hash}` };
  } finally {
    router.dispose();
  }
}

describe('the app router', () => {
  it('starts at the dashboard when the page opens at the root, before anything renders', () => {
    expect(startAt('/')).toEqual({ route: 'dashboard', page: '/dashboard' });
    expect(startAt('/?libraryId=x#top')).toEqual({ route: 'dashboard', page: '/dashboard?libraryId=x#top' });
  });

  it('does the same under a context path, and leaves every other address as it is', () => {
    const base = document.createElement('base');
    base.href = '/quire/';
    document.head.append(base);
    expect(startAt('/quire')).toEqual({ route: 'dashboard', page: '/quire/dashboard' });
    expect(startAt('/quire/')).toEqual({ route: 'dashboard', page: '/quire/dashboard' });
    expect(startAt('/quire/libraries/lib-1/series')).toEqual({
      route: 'series',
      page: '/quire/libraries/lib-1/series',
    });
  });
});
