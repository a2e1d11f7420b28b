import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { createTheme } from '@mui/material/styles';
import { renderScreen } from '../../test/render';
import { cardsInView } from './DashboardSections';
import { buildLibrary, buildUser } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { buildBook, buildSeries, page } from '../../test/fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('DashboardPage', () => {
  it('shows the sections that have something, each linking to its full list when there is more', async () => {
    const keepReading = buildBook({ id: 'b-kr' }, { title: 'Halfway', number: '2' });
    stubFetch({
      // Every book list answers with the one book; new series with the last page of 25.
      'POST /api/v1/books/list': { json: page([keepReading]) },
      'GET /api/v1/books/ondeck': { json: page([]) },
      'GET /api/v1/series/new': { json: page([buildSeries()], { totalElements: 25, number: 1 }) },
      'GET /api/v1/series/updated': { json: page([]) },
    });
    renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/dashboard' });
    const keep = await screen.findByRole('region', { name: 'Keep reading' });
    expect(await within(keep).findByRole('link', { name: '2 - Halfway' })).toHaveAttribute('href', '/book/b-kr');
    expect(within(keep).getByRole('link', { name: 'Alpha' })).toHaveAttribute('href', '/series/series-1');
    const added = screen.getByRole('region', { name: 'Recently added series' });
    await within(added).findByRole('link', { name: 'Alpha' });
    expect(within(added).getByRole('link', { name: 'See all' })).toHaveAttribute(
      'href',
      '/dashboard/recently-added-series',
    );
    await waitFor(() => expect(screen.queryByRole('region', { name: 'On deck' })).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Recently updated series' })).not.toBeInTheDocument();
  });

  it('shows its rows without updating itself while a card renders', async () => {
    const errors = vi.spyOn(console, 'error');
    stubFetch({
      'POST /api/v1/books/list': { json: page([buildBook({ id: 'b-kr' }, { title: 'Halfway' })]) },
      'GET /api/v1/books/ondeck': { json: page([]) },
      'GET /api/v1/series/new': { json: page([buildSeries()]) },
      'GET /api/v1/series/updated': { json: page([]) },
    });
    renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/dashboard' });
    const added = await screen.findByRole('region', { name: 'Recently added series' });
    await within(added).findByRole('link', { name: 'Alpha' });
    // React's warning when a component's update is asked for during another's render
    const renderPhaseUpdates = errors.mock.calls.filter((args) =>
      String(args[0]).includes('Cannot update a component'),
    );
    expect(renderPhaseUpdates).toEqual([]);
  });

  it('selects across its rows: while a selection is under way a click on a card picks it instead of opening it', async () => {
    stubFetch({
      'POST /api/v1/books/list': { json: page([]) },
      'GET /api/v1/books/ondeck': { json: page([]) },
      'GET /api/v1/series/new': { json: page([buildSeries(), buildSeries({ id: 'series-2' }, { title: 'Beta' })]) },
      'GET /api/v1/series/updated': { json: page([]) },
    });
    const { user, location } = renderScreen(null, {
      user: buildUser(),
      libraries: [buildLibrary()],
      route: '/dashboard',
    });
    const added = await screen.findByRole('region', { name: 'Recently added series' });
    await user.click(await within(added).findByRole('button', { name: 'Select Alpha' }));
    const bar = screen.getByRole('toolbar', { name: 'Selection' });
    expect(bar).toHaveTextContent('1 selected');
    await user.click(within(added).getByRole('link', { name: 'Beta' }));
    expect(bar).toHaveTextContent('2 selected');
    expect(location()).toBe('/dashboard');
    expect(within(added).getByRole('button', { name: 'Select Beta' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('says there is nothing to show when every section is empty', async () => {
    stubFetch({
      'POST /api/v1/books/list': { json: page([]) },
      'GET /api/v1/books/ondeck': { json: page([]) },
      'GET /api/v1/series/new': { json: page([]) },
      'GET /api/v1/series/updated': { json: page([]) },
    });
    renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/dashboard' });
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
  });

  it('limits a library’s recommended view to that library', async () => {
    const { requests } = stubFetch({
      'POST /api/v1/books/list': { json: page([]) },
      'GET /api/v1/books/ondeck': { json: page([]) },
      'GET /api/v1/series/new': { json: page([]) },
      'GET /api/v1/series/updated': { json: page([]) },
      'GET /api/v1/collections': { json: page([]) },
      'GET /api/v1/readlists': { json: page([]) },
    });
    renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route: '/libraries/lib-1/recommended' });
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
    const onDeck = requests.find((r) => r.path === '/api/v1/books/ondeck')!;
    expect(new URLSearchParams(onDeck.search).getAll('library_id')).toEqual(['lib-1']);
    const bookLists = requests.filter((r) => r.path === '/api/v1/books/list');
    expect(bookLists.length).toBeGreaterThan(0);
    for (const r of bookLists)
      expect(JSON.stringify(r.body)).toContain('"libraryId":{"operator":"is","value":"lib-1"}');
  });

  it("first renders the cards a row shows in the window, beside the desktop's drawer", () => {
    const { breakpoints } = createTheme();
    const cardsAt = (width: number) => {
      vi.stubGlobal('innerWidth', width);
      return cardsInView(breakpoints);
    };
    // a phone: 136 px a card; a tablet: 166; a desktop: 166 in what the 260 px drawer leaves; one more each
    expect(cardsAt(272)).toBe(3);
    expect(cardsAt(800)).toBe(6);
    expect(cardsAt(1280)).toBe(8);
    expect(cardsAt(1920)).toBe(11);
  });
});
