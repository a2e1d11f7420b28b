import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildLibrary, buildUser } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { buildBook, buildCollection, buildSeries, page } from '../../test/fixtures';
import { SearchBox } from './SearchBox';

afterEach(() => vi.unstubAllGlobals());

function render(route = '/') {
  const net = stubFetch({
    'POST /api/v1/series/list': { json: page([buildSeries({ id: 's1' }, { title: 'Batman' })]) },
    'POST /api/v1/books/list': { json: page([buildBook({ id: 'b1' }, { title: 'Batman Returns' })]) },
    'GET /api/v1/collections': { json: page([buildCollection({ name: 'Bat family' })]) },
    'GET /api/v1/readlists': { json: page([]) },
  });
  return { ...net, ...renderScreen(<SearchBox />, { user: buildUser(), libraries: [buildLibrary()], route }) };
}

describe('SearchBox', () => {
  it('suggests series, books and collections in groups, and opens the one picked', async () => {
    const { user, location, requests } = render();
    await user.type(screen.getByRole('combobox', { name: 'Search' }), 'bat');
    // The groups fill in as each search answers.
    await waitFor(() => expect(screen.getByText('Collections')).toBeInTheDocument());
    expect(screen.getByRole('option', { name: /Batman Returns/ })).toBeInTheDocument();
    expect(screen.getByText('Series')).toBeInTheDocument();
    expect(screen.getByText('Books')).toBeInTheDocument();
    expect(screen.getByText('Collections')).toBeInTheDocument();
    expect(screen.queryByText('Read lists')).not.toBeInTheDocument();

    const seriesSearches = () => requests.filter((r) => r.path === '/api/v1/series/list');
    await waitFor(() =>
      expect(seriesSearches().at(-1)!.body).toEqual({
        fullTextSearch: 'bat',
        condition: { oneShot: { operator: 'isFalse' } },
      }),
    );
    const series = seriesSearches().at(-1)!;
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
    expect(new URLSearchParams(series.search).get('size')).toBe('10');

    await user.click(screen.getByRole('option', { name: /Batman\s?in Comics/ }));
    expect(location()).toBe('/series/s1');
    expect(screen.getByRole('combobox', { name: 'Search' })).toHaveValue('');
  });

  it('goes to the results page on Enter', async () => {
    const { user, location } = render();
    await user.type(screen.getByRole('combobox', { name: 'Search' }), 'bat');
    await screen.findByRole('option', { name: /Search all for/ });
    await user.keyboard('{Enter}');
    expect(location()).toBe('/search?q=bat');
  });

  it('searches the current library only, until widened to all', async () => {
    const { user, requests, location } = render('/libraries/lib-1/series');
    await user.type(screen.getByRole('combobox', { name: 'Search' }), 'bat');
    await screen.findByRole('option', { name: /Batman Returns/ });
    // Waited for: on a loaded machine the search can go out after "b", answered by the same options, before "bat".
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/v1/books/list').at(-1)!.body).toEqual({
        fullTextSearch: 'bat',
        condition: { anyOf: [{ libraryId: { operator: 'is', value: 'lib-1' } }] },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Searching Comics; search all libraries instead' }));
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/v1/books/list').at(-1)!.body).toEqual({ fullTextSearch: 'bat' }),
    );
    await user.click(screen.getByRole('combobox', { name: 'Search' }));
    await user.keyboard('{Enter}');
    expect(location()).toBe('/search?q=bat');
  });
});
