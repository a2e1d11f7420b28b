import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary, buildUser } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { buildBook, buildCollection, buildReadList, buildSeries, page } from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

// Whole screens render here (shell, guards, lazy routes): give them time on a busy machine.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

// The routes load their screens lazily: load them once up front so no test pays for the first import.
beforeAll(async () => {
  await Promise.all([
    import('./SeriesPage'),
    import('./BookPage'),
    import('./OneshotPage'),
    import('./CollectionPage'),
    import('./ReadListPage'),
  ]);
}, 30_000);

const libraries = [buildLibrary()];

describe('SeriesPage', () => {
  const series = buildSeries(
    { booksCount: 2, booksUnreadCount: 2 },
    {
      summary: 'Two lovers on the run.',
      status: 'ENDED',
      publisher: 'Image',
      genres: ['Space opera', 'Drama'],
      ageRating: 16,
      language: 'en',
      readingDirection: 'LEFT_TO_RIGHT',
      totalBookCount: 3,
    },
  );
  const books = [buildBook(), buildBook({ id: 'book-2', number: 2 }, { title: 'Chapter Two', number: '2' })];
  const answers = {
    'GET /api/v1/series/series-1': { json: series },
    'POST /api/v1/books/list': { json: page(books) },
    'GET /api/v1/series/series-1/collections': { json: [buildCollection()] },
    'POST /api/v1/series/series-1/read-progress': { status: 204 },
  };

  it('shows the header, metadata, collections and the books, and sets the title', async () => {
    stubFetch(answers);
    renderScreen(null, { user: buildUser(), libraries, route: '/series/series-1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Saga' })).toBeInTheDocument();
    expect(screen.getByText('2 / 3 books')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ended' })).toHaveAttribute(
      'href',
      '/libraries/lib-1/series?status=is%3AENDED',
    );
    expect(screen.getByText('16+')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'English' })).toHaveAttribute(
      'href',
      '/libraries/lib-1/series?language=is%3Aen',
    );
    expect(screen.getByText('Left to right')).toBeInTheDocument();
    expect(screen.getByText('Two lovers on the run.')).toBeInTheDocument();
    const genres = screen.getByRole('group', { name: 'Genres' });
    expect(
      within(genres)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Drama', 'Space opera']);
    expect(await screen.findByText('Space operas collection')).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Books' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(2));
    expect(document.title).toBe('Saga - Quire');
    expect(screen.getByRole('link', { name: /^Read$/ })).toHaveAttribute('href', '/book/book-1/read');
  });

  it('marks the series read from its action bar', async () => {
    const { requests } = stubFetch(answers);
    const { user } = renderScreen(null, { user: buildUser(), libraries, route: '/series/series-1' });
    await user.click(await screen.findByRole('button', { name: 'Mark as read' }));
    await waitFor(() =>
      expect(requests.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/v1/series/series-1/read-progress'),
    );
  });

  it('filters its books through the URL', async () => {
    const { requests } = stubFetch(answers);
    renderScreen(null, { user: buildUser(), libraries, route: '/series/series-1?readStatus=is:UNREAD&sort=name,desc' });
    await screen.findByRole('heading', { level: 1, name: 'Saga' });
    await waitFor(() =>
      expect(requests.some((r) => r.path === '/api/v1/books/list' && r.search.includes('name'))).toBe(true),
    );
    const list = requests.find((r) => r.path === '/api/v1/books/list' && r.search.includes('sort=name%2Cdesc'));
    expect(list?.body).toEqual({
      condition: {
        allOf: [
          { seriesId: { operator: 'is', value: 'series-1' } },
          { readStatus: { operator: 'is', value: 'UNREAD' } },
        ],
      },
    });
  });

  it('sends a one-shot to its one-shot page', async () => {
    stubFetch({
      ...answers,
      'GET /api/v1/series/series-1': { json: buildSeries({ oneshot: true, booksCount: 1 }) },
      'POST /api/v1/books/list': { json: page([buildBook({ oneshot: true })]) },
    });
    const app = renderScreen(null, { user: buildUser(), libraries, route: '/series/series-1' });
    await waitFor(() => expect(app.location()).toBe('/oneshot/series-1'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Chapter One' })).toBeInTheDocument();
  });
});

describe('BookPage', () => {
  const book = buildBook(
    {
      readProgress: {
        page: 4,
        completed: false,
        readDate: '2024-06-01T10:00:00Z',
        created: '',
        lastModified: '',
        deviceId: '',
        deviceName: '',
      },
    },
    {
      summary: 'It begins.',
      isbn: '9781607066019',
      tags: ['space'],
      authors: [
        { name: 'Brian K. Vaughan', role: 'writer' },
        { name: 'Fiona Staples', role: 'penciller' },
      ],
      links: [{ label: 'Publisher', url: 'https://example.org/saga' }],
    },
  );
  const answers = {
    'GET /api/v1/books/book-1': { json: book },
    'GET /api/v1/books/book-1/readlists': { json: [buildReadList()] },
    'GET /api/v1/books/book-1/next': { json: buildBook({ id: 'book-2' }, { title: 'Chapter Two', number: '2' }) },
    'GET /api/v1/books/book-1/previous': { status: 404 },
  };

  it('shows every field, progress, and file details to admins', async () => {
    stubFetch(answers);
    renderScreen(null, { user: buildAdmin(), libraries, route: '/book/book-1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Chapter One' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Saga' })).toHaveAttribute('href', '/series/series-1');
    expect(screen.getByText('#1 · 24 pages')).toBeInTheDocument();
    expect(screen.getByText('20 pages left')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue reading' })).toHaveAttribute('href', '/book/book-1/read');
    expect(screen.getByRole('link', { name: 'Read incognito' })).toHaveAttribute(
      'href',
      '/book/book-1/read?incognito=true',
    );
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('href', '/api/v1/books/book-1/file');
    expect(
      within(screen.getByRole('group', { name: 'Writers' })).getByRole('link', { name: 'Brian K. Vaughan' }),
    ).toHaveAttribute('href', '/series/series-1?writer=is%3ABrian+K.+Vaughan');
    expect(within(screen.getByRole('group', { name: 'Tags' })).getByRole('link', { name: 'space' })).toHaveAttribute(
      'href',
      '/series/series-1?tag=is%3Aspace',
    );
    expect(
      within(screen.getByRole('group', { name: 'Links' })).getByRole('link', { name: 'Publisher' }),
    ).toHaveAttribute('target', '_blank');
    expect(within(screen.getByRole('group', { name: 'Format' })).getByText('CBZ')).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'File' })).getByText('/data/comics/Saga/Saga 001.cbz'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Summer reading read list')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Next book' })).toHaveAttribute('href', '/book/book-2'),
    );
    expect(screen.getByRole('button', { name: 'Previous book' })).toBeDisabled();
    expect(document.title).toBe('Saga - 1 - Chapter One - Quire');
  });

  it('hides the file path, download and admin actions from a plain reader', async () => {
    stubFetch(answers);
    renderScreen(null, { user: buildUser({ roles: ['USER', 'PAGE_STREAMING'] }), libraries, route: '/book/book-1' });
    await screen.findByRole('heading', { level: 1, name: 'Chapter One' });
    expect(screen.queryByRole('group', { name: 'File' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('navigates within a read list when opened from one', async () => {
    stubFetch({
      ...answers,
      'GET /api/v1/readlists/rl-1': { json: buildReadList() },
      'GET /api/v1/readlists/rl-1/books/book-1/next': { status: 404 },
      'GET /api/v1/readlists/rl-1/books/book-1/previous': { json: buildBook({ id: 'book-0' }, { title: 'Prologue' }) },
    });
    renderScreen(null, { user: buildUser(), libraries, route: '/book/book-1?context=readlist&contextId=rl-1' });
    expect(await screen.findByText('Navigating within the read list: Summer reading')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to read list' })).toHaveAttribute('href', '/readlists/rl-1');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Previous book' })).toHaveAttribute(
        'href',
        '/book/book-0?context=readlist&contextId=rl-1',
      ),
    );
    expect(screen.getByRole('link', { name: 'Continue reading' })).toHaveAttribute(
      'href',
      '/book/book-1/read?context=readlist&contextId=rl-1',
    );
  });

  it('deleted from its page, goes back to its series and says so, also while the series is still loading', async () => {
    const { fetchMock } = stubFetch({
      ...answers,
      'DELETE /api/v1/books/book-1/file': { status: 202 },
      'GET /api/v1/series/series-1': { json: buildSeries() },
      'POST /api/v1/books/list': { json: page([]) },
    });
    // the series page has nothing to show until its series arrives (the book page does not ask for it)
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/api/v1/series/series-1')) await new Promise((resolve) => setTimeout(resolve, 300));
      return fetchMock(input, init);
    });
    const app = renderScreen(null, { user: buildAdmin(), libraries, route: '/book/book-1' });
    const { user } = app;
    await user.click(await screen.findByRole('button', { name: 'Actions for Chapter One' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete book' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Yes, delete the book "Chapter One" and its file' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.location()).toBe('/series/series-1'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Saga' })).toBeInTheDocument();
    // before, the message went with the book page, the series page being a skeleton with nowhere to show it
    expect(screen.getByText('Book Chapter One deleted')).toBeVisible();
  });

  it('says so when the book is gone', async () => {
    stubFetch({});
    renderScreen(null, { user: buildUser(), libraries, route: '/book/missing' });
    expect(await screen.findByRole('heading', { name: 'Not found' })).toBeInTheDocument();
  });
});

describe('CollectionPage', () => {
  const collection = buildCollection({ ordered: true, seriesIds: ['s1', 's2', 's3'] });
  const series = ['s1', 's2', 's3'].map((id) => buildSeries({ id }, { title: `Series ${id}` }));
  const answers = {
    'GET /api/v1/collections/col-1': { json: collection },
    'GET /api/v1/collections/col-1/series': { json: page(series) },
    'PATCH /api/v1/collections/col-1': { status: 204 },
  };

  it('lists its series in order', async () => {
    stubFetch(answers);
    renderScreen(null, { user: buildUser(), libraries, route: '/collections/col-1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Space operas' })).toBeInTheDocument();
    expect(screen.getByText('(manual ordering)')).toBeInTheDocument();
    const grid = await screen.findByRole('list', { name: 'Series' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Edit elements' })).not.toBeInTheDocument();
  });

  it('reorders and removes members from the keyboard, then saves the new order', async () => {
    const { requests } = stubFetch(answers);
    const { user } = renderScreen(null, { user: buildAdmin(), libraries, route: '/collections/col-1' });
    await user.click(await screen.findByRole('button', { name: 'Edit elements' }));
    const list = await screen.findByRole('list', { name: 'Series' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Move Series s3 up' }));
    expect(screen.getByRole('button', { name: 'Move Series s3 up' })).toHaveFocus();
    // One live region among others (the app bar's task progress has its own).
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('Series s3 moved to position 2 of 3');
    await user.keyboard('{Enter}');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining('Series s3'),
      expect.stringContaining('Series s1'),
      expect.stringContaining('Series s2'),
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove Series s2' }));
    await user.click(save);
    await waitFor(() => expect(requests.filter((r) => r.method === 'PATCH')).toHaveLength(1));
    expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({
      path: '/api/v1/collections/col-1',
      body: { seriesIds: ['s3', 's1'] },
    });
    expect(await screen.findByText('Space operas saved')).toBeInTheDocument();
  });
});

describe('ReadListPage', () => {
  it('shows the summary, download, export and the books with the read-list context', async () => {
    const readList = buildReadList({ summary: 'Beach books.', bookIds: ['book-1'] });
    stubFetch({
      'GET /api/v1/readlists/rl-1': { json: readList },
      'GET /api/v1/readlists/rl-1/books': { json: page([buildBook()]) },
    });
    renderScreen(null, { user: buildUser(), libraries, route: '/readlists/rl-1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Summer reading' })).toBeInTheDocument();
    expect(screen.getByText('Beach books.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('href', '/api/v1/readlists/rl-1/file');
    expect(screen.getByRole('link', { name: 'Export as ComicRack list (.cbl)' })).toHaveAttribute(
      'href',
      '/api/v1/readlists/rl-1/cbl',
    );
    const grid = await screen.findByRole('list', { name: 'Books' });
    await waitFor(() => expect(within(grid).getAllByRole('listitem')).toHaveLength(1));
    expect(
      within(grid)
        .getAllByRole('link')
        .some((l) => l.getAttribute('href') === '/book/book-1?context=readlist&contextId=rl-1'),
    ).toBe(true);
  });
});
