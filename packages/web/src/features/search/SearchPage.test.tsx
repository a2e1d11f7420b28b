import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildBook, buildLibrary, buildSeries, buildUser, page } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

const renderSearch = () =>
  renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/search?q=alpha' });

describe('SearchPage', () => {
  it('shows a row for each kind that found something, hides those that found nothing, and says why one failed', async () => {
    const { requests } = stubFetch({
      'POST /api/v1/series/list': { json: page([buildSeries()]) },
      'POST /api/v1/books/list': { json: page([buildBook({ id: 'b1' }, { title: 'Alpha begins' })]) },
      'GET /api/v1/collections': { json: page([]) },
      'GET /api/v1/readlists': { status: 500, json: { status: 500, message: 'The read lists are down' } },
    });
    renderSearch();
    const series = await screen.findByRole('region', { name: 'Series' });
    expect(await within(series).findByRole('link', { name: 'Alpha' })).toHaveAttribute('href', '/series/series-1');
    const books = screen.getByRole('region', { name: 'Books' });
    await within(books).findByRole('link', { name: /Alpha begins/ });
    const failed = await screen.findByRole('alert');
    expect(failed).toHaveTextContent('Read lists');
    expect(screen.queryByRole('region', { name: 'Read lists' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Collections' })).not.toBeInTheDocument());

    const asked = () => requests.filter((r) => r.path === '/api/v1/readlists').length;
    const before = asked();
    await within(failed)
      .findByRole('button', { name: 'Retry' })
      .then((b) => b.click());
    await waitFor(() => expect(asked()).toBeGreaterThan(before));
  });

  it('says the search found nothing when every kind came back empty', async () => {
    stubFetch({
      'POST /api/v1/series/list': { json: page([]) },
      'POST /api/v1/books/list': { json: page([]) },
      'GET /api/v1/collections': { json: page([]) },
      'GET /api/v1/readlists': { json: page([]) },
    });
    renderSearch();
    expect(await screen.findByText('The search returned no results')).toBeInTheDocument();
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });
});
