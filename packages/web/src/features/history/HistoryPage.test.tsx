import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildBook, buildLibrary, buildUser, page } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

const converted = {
  id: 'e1',
  type: 'BookConverted',
  bookId: 'book-1',
  seriesId: 'gone-series',
  timestamp: '2026-01-02T10:00:00.000',
  properties: { name: '/data/A/book.cbz', 'former file': '/data/A/book.cbr' },
};

describe('history', () => {
  it('shows events to any user, links what still exists, filters by type and shows the details', async () => {
    const net = stubFetch({
      'GET /api/v1/history': { json: page([converted]) },
      'GET /api/v1/books/book-1': { json: buildBook({ id: 'book-1' }, { title: 'The book' }) },
      'GET /api/v1/series/gone-series': { status: 404 },
    });
    const { user } = renderScreen(null, { route: '/history', user: buildUser(), libraries: [buildLibrary()] });
    const row = (await screen.findByRole('link', { name: 'The book' })).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'The book' })).toHaveAttribute('href', '/book/book-1');
    expect(await within(row).findByText('gone-series')).toBeInTheDocument();
    expect(within(row).getByText('Book converted')).toBeInTheDocument();
    expect(net.requests[0]!.search).toContain('sort=timestamp%2Cdesc');

    await user.click(screen.getByRole('button', { name: 'Series folder deleted' }));
    await waitFor(() =>
      expect(net.requests.filter((r) => r.path === '/api/v1/history').at(-1)!.search).toContain(
        'type=SeriesFolderDeleted',
      ),
    );

    await user.click(await screen.findByRole('button', { name: 'Details of this event: Book converted' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Former file')).toBeInTheDocument();
    expect(within(dialog).getByText('/data/A/book.cbr')).toBeInTheDocument();
  });

  it('says so when nothing happened yet', async () => {
    stubFetch({ 'GET /api/v1/history': { json: page([]) } });
    renderScreen(null, { route: '/history', user: buildUser(), libraries: [buildLibrary()] });
    expect(await screen.findByText('Nothing has happened to your files yet.')).toBeInTheDocument();
  });
});
