import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildCollection, buildLibrary, buildReadList, page } from '../../test/fixtures';
import { resetPreferences } from '../../app/preferences';
import { stubFetch } from '../account/fetch-stub';

beforeEach(() => resetPreferences());
afterEach(() => {
  vi.unstubAllGlobals();
  resetPreferences();
});

function open(route: string, collections: unknown[], readLists: unknown[]) {
  const net = stubFetch({
    'GET /api/v1/collections': { json: page(collections, { totalElements: collections.length }) },
    'GET /api/v1/readlists': { json: page(readLists, { totalElements: readLists.length }) },
  });
  const app = renderScreen(null, { user: buildAdmin(), libraries: [buildLibrary({ id: 'lib-1' })], route });
  return { ...app, ...net };
}

describe('collections and read lists of a library', () => {
  it('lists the collections of the library, on the page the URL names', async () => {
    const { requests } = open('/libraries/lib-1/collections?page=2', [buildCollection({ name: 'Heroes' })], []);
    const grid = await screen.findByRole('list', { name: 'Collections' });
    expect(await within(grid).findByText('Heroes')).toBeInTheDocument();
    const sent = requests
      .filter((r) => r.path === '/api/v1/collections')
      .map((r) => new URLSearchParams(r.search))
      .map((q) => ({ library: q.get('library_id'), page: q.get('page') }));
    expect(sent).toContainEqual({ library: 'lib-1', page: '1' });
  });

  it('lists the read lists of the library', async () => {
    open('/libraries/lib-1/readlists', [], [buildReadList({ name: 'Crisis' })]);
    const grid = await screen.findByRole('list', { name: 'Read lists' });
    expect(await within(grid).findByText('Crisis')).toBeInTheDocument();
  });

  it('says when there is nothing, and points to the series', async () => {
    open('/libraries/lib-1/readlists', [], []);
    expect(await screen.findByText('No read lists here')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse series' })).toHaveAttribute('href', '/libraries/lib-1/series');
  });
});
