import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildBook, buildLibrary, buildSeries, buildUser, page } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';

afterEach(() => vi.unstubAllGlobals());

// The routes load their screens lazily: load them once up front, so the first test's 10 s wait for a row does not
// include compiling them on a busy machine (CI failed at that first wait once).
beforeAll(async () => {
  await Promise.all([
    import('./MediaManagementPage'),
    import('./MediaAnalysisTab'),
    import('./MissingPostersTab'),
    import('./DuplicateFilesTab'),
  ]);
}, 60_000);

const broken = buildBook(
  {
    id: 'broken',
    name: 'Broken',
    url: '/data/comics/Alpha/Broken.cbz',
    media: {
      status: 'ERROR',
      mediaType: 'application/zip',
      pagesCount: 0,
      comment: 'ERR_1006',
      epubDivinaCompatible: false,
      epubIsKepub: false,
      mediaProfile: 'DIVINA',
    },
  },
  { title: 'Broken' },
);

const screenAt = (route: string, user = buildAdmin()) =>
  renderScreen(null, { route, user, libraries: [buildLibrary()] });

describe('media analysis', () => {
  it('lists the books that are not READY with their error translated, and analyses one again', async () => {
    const net = stubFetch({
      'POST /api/v1/books/list': { json: page([broken]) },
      'POST /api/v1/books/broken/analyze': { status: 202 },
    });
    const { user } = screenAt('/media-management');
    const row = (await screen.findByText('The book does not contain any page')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Broken' })).toHaveAttribute('href', '/book/broken');
    expect(within(row).getByText('Comics')).toBeInTheDocument();
    expect(within(row).getByText('Error')).toBeInTheDocument();
    // The screen's own list (the drawer also counts the books to check, one per page).
    const list = net.requests.find((r) => r.path === '/api/v1/books/list' && r.search.includes('sort='))!;
    expect(list.body).toEqual({
      condition: {
        anyOf: [
          { mediaStatus: { operator: 'is', value: 'ERROR' } },
          { mediaStatus: { operator: 'is', value: 'UNSUPPORTED' } },
        ],
      },
    });
    expect(list.search).toContain('sort=media.status%2Casc');

    await user.click(within(row).getByRole('button', { name: 'Analyze Broken again' }));
    expect(await screen.findByText('Analysis queued for 1 book')).toBeInTheDocument();
    expect(net.requests.some((r) => r.method === 'POST' && r.path === '/api/v1/books/broken/analyze')).toBe(true);

    // The drawer's entry carries a dot while books need checking.
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const entry = await screen.findByRole('link', { name: /Media management/ });
    expect(await within(entry).findByText('1 book to check')).toBeInTheDocument();
  });

  it('filters by status (never none) and analyses the selected books', async () => {
    const net = stubFetch({
      'POST /api/v1/books/list': { json: page([broken]) },
      'POST /api/v1/books/broken/analyze': { status: 202 },
    });
    const { user } = screenAt('/media-management/analysis');
    await screen.findByText('The book does not contain any page');
    await user.click(screen.getByRole('button', { name: 'Unsupported' }));
    await user.click(screen.getByRole('button', { name: 'Error' }));
    // The last status stays on.
    expect(screen.getByRole('button', { name: 'Error' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() =>
      expect(net.requests.at(-1)!.body).toEqual({
        condition: { anyOf: [{ mediaStatus: { operator: 'is', value: 'ERROR' } }] },
      }),
    );
    await user.click(await screen.findByRole('checkbox', { name: 'Select Broken' }));
    await user.click(screen.getByRole('button', { name: 'Analyze selected again (1)' }));
    await waitFor(() => expect(net.requests.filter((r) => r.path === '/api/v1/books/broken/analyze')).toHaveLength(1));
  });

  it('is for administrators: others go home', async () => {
    stubFetch({});
    const { location } = screenAt('/media-management/analysis', buildUser());
    await waitFor(() => expect(location()).not.toContain('media-management'));
  });
});

describe('missing posters', () => {
  it('lists readable books without a selected poster and regenerates one', async () => {
    const bare = buildBook({ id: 'bare', seriesTitle: 'Alpha' }, { title: 'Bare' });
    const net = stubFetch({
      'POST /api/v1/books/list': { json: page([bare]) },
      'GET /api/v1/media-management/series-without-poster': { json: page([]) },
      'POST /api/v1/books/bare/analyze': { status: 202 },
    });
    const { user } = screenAt('/media-management/missing-posters');
    const row = (await screen.findByRole('link', { name: 'Bare' })).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Alpha' })).toHaveAttribute('href', '/series/series-1');
    expect(net.requests.find((r) => r.path === '/api/v1/books/list')!.body).toEqual({
      condition: {
        allOf: [
          { mediaStatus: { operator: 'is', value: 'READY' } },
          { poster: { operator: 'isNot', value: { selected: true } } },
        ],
      },
    });
    await user.click(within(row).getByRole('button', { name: 'Make the poster of Bare again' }));
    expect(await screen.findByText('Poster requested for 1 book')).toBeInTheDocument();
  });

  it('lists series without any poster and analyses one again', async () => {
    const bleak = buildSeries({ id: 'bleak' }, { title: 'Bleak' });
    const net = stubFetch({
      'POST /api/v1/books/list': { json: page([]) },
      'GET /api/v1/media-management/series-without-poster': { json: page([bleak]) },
      'POST /api/v1/series/bleak/analyze': { status: 202 },
    });
    const { user } = screenAt('/media-management/missing-posters');
    expect(await screen.findByText('Every readable book has a poster.')).toBeInTheDocument();
    const row = (await screen.findByRole('link', { name: 'Bleak' })).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Make the poster of Bleak again' }));
    expect(await screen.findByText('Posters requested for the books of Bleak')).toBeInTheDocument();
    expect(net.requests.some((r) => r.method === 'POST' && r.path === '/api/v1/series/bleak/analyze')).toBe(true);
  });
});

describe('duplicate files', () => {
  it('groups books by file hash and deletes one after confirmation', async () => {
    const a = buildBook({ id: 'a', fileHash: 'h1', url: '/data/comics/A/a.cbz' }, { title: 'First copy' });
    const b = buildBook({ id: 'b', fileHash: 'h1', url: '/data/comics/B/b.cbz' }, { title: 'Second copy' });
    const net = stubFetch({
      'GET /api/v1/books/duplicates': { json: page([a, b]) },
      'DELETE /api/v1/books/b/file': { status: 202 },
    });
    const { user } = screenAt('/media-management/duplicate-files');
    expect(await screen.findByText('Hash h1 · 1 KiB')).toBeInTheDocument();
    expect(screen.getAllByText(/^Hash /)).toHaveLength(1);
    expect(net.requests[0]!.search).toContain('sort=fileHash%2Casc');

    await user.click(screen.getByRole('button', { name: 'Delete the file of Second copy' }));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(confirm);
    await waitFor(() =>
      expect(net.requests.some((r) => r.method === 'DELETE' && r.path === '/api/v1/books/b/file')).toBe(true),
    );
    expect(net.requests.some((r) => r.path === '/api/v1/books/a/file')).toBe(false);
  });
});
