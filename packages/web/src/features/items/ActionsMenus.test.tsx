import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import type { UserDto } from '@quire/api';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildLibrary, buildUser } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { BookActionsMenu } from './BookActionsMenu';
import { CollectionActionsMenu } from './CollectionActionsMenu';
import { ReadListActionsMenu } from './ReadListActionsMenu';
import { SeriesActionsMenu } from './SeriesActionsMenu';
import { buildBook, buildCollection, buildReadList, buildSeries } from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

// Menus and dialogs animate and load lazily: room for a busy machine.
configure({ asyncUtilTimeout: 5000 });

const reader = buildUser({ roles: ['USER', 'PAGE_STREAMING'] });
const downloader = buildUser();

function render(ui: React.ReactElement, user: UserDto) {
  return renderScreen(ui, { user, libraries: [buildLibrary()], route: '/somewhere' });
}

async function openMenu(user: ReturnType<typeof render>['user'], title: string) {
  await user.click(screen.getByRole('button', { name: `Actions for ${title}` }));
  return screen.getAllByRole('menuitem').map((i) => i.textContent);
}

describe('BookActionsMenu', () => {
  it('gives admins every action', async () => {
    stubFetch({});
    const app = render(<BookActionsMenu book={buildBook()} />, buildAdmin());
    expect(await openMenu(app.user, 'Chapter One')).toEqual([
      'Read',
      'Read incognito',
      'Mark as read',
      'Add to read list',
      'Edit',
      'Analyze',
      'Refresh metadata',
      'Download',
      'Delete',
    ]);
  });

  it('leaves admin actions out for other users, and download without FILE_DOWNLOAD', async () => {
    stubFetch({});
    const app = render(<BookActionsMenu book={buildBook()} />, reader);
    expect(await openMenu(app.user, 'Chapter One')).toEqual(['Read', 'Read incognito', 'Mark as read']);
  });

  it('offers download with FILE_DOWNLOAD, as a link to the file', async () => {
    stubFetch({});
    const app = render(<BookActionsMenu book={buildBook()} />, downloader);
    await openMenu(app.user, 'Chapter One');
    expect(screen.getByRole('menuitem', { name: 'Download' })).toHaveAttribute('href', '/api/v1/books/book-1/file');
  });

  it('shows mark as unread for a read book, and both for one in progress', async () => {
    stubFetch({});
    const progress = {
      page: 3,
      completed: false,
      readDate: '',
      created: '',
      lastModified: '',
      deviceId: '',
      deviceName: '',
    };
    const app = render(
      <>
        <BookActionsMenu book={buildBook({ readProgress: { ...progress, completed: true } })} />
        <BookActionsMenu book={buildBook({ id: 'b2', readProgress: progress }, { title: 'Two' })} />
      </>,
      reader,
    );
    expect(await openMenu(app.user, 'Chapter One')).toContain('Mark as unread');
    expect(screen.queryByRole('menuitem', { name: 'Mark as read' })).not.toBeInTheDocument();
    await app.user.keyboard('{Escape}');
    const items = await openMenu(app.user, 'Two');
    expect(items).toContain('Mark as read');
    expect(items).toContain('Mark as unread');
  });

  it('cannot be read before analysis or without PAGE_STREAMING', async () => {
    stubFetch({});
    const unknown = buildBook({ media: { ...buildBook().media, status: 'UNKNOWN' } });
    const app = render(<BookActionsMenu book={unknown} />, buildAdmin());
    expect(await openMenu(app.user, 'Chapter One')).not.toContain('Read');
    await app.user.keyboard('{Escape}');
  });

  it('opens the reader, keeping the read-list context', async () => {
    stubFetch({});
    const app = render(<BookActionsMenu book={buildBook()} context={{ type: 'readlist', id: 'rl-1' }} />, reader);
    await openMenu(app.user, 'Chapter One');
    await app.user.click(screen.getByRole('menuitem', { name: 'Read incognito' }));
    expect(app.location()).toBe('/book/book-1/read?incognito=true&context=readlist&contextId=rl-1');
  });

  it('marks the book read', async () => {
    const { requests } = stubFetch({ 'PATCH /api/v1/books/book-1/read-progress': { status: 204 } });
    const app = render(<BookActionsMenu book={buildBook()} />, reader);
    await openMenu(app.user, 'Chapter One');
    await app.user.click(screen.getByRole('menuitem', { name: 'Mark as read' }));
    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'PATCH')).toEqual([
        expect.objectContaining({ path: '/api/v1/books/book-1/read-progress', body: { completed: true } }),
      ]),
    );
  });

  it('queues analysis and says so', async () => {
    const { requests } = stubFetch({ 'POST /api/v1/books/book-1/analyze': { status: 202 } });
    const app = render(<BookActionsMenu book={buildBook()} />, buildAdmin());
    await openMenu(app.user, 'Chapter One');
    await app.user.click(screen.getByRole('menuitem', { name: 'Analyze' }));
    expect(await screen.findByText('Analysis of Chapter One queued')).toBeInTheDocument();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/v1/books/book-1/analyze');
  });

  it('refreshes a one-shot book and its series', async () => {
    const { requests } = stubFetch({
      'POST /api/v1/books/book-1/metadata/refresh': { status: 202 },
      'POST /api/v1/series/series-1/metadata/refresh': { status: 202 },
    });
    const app = render(<BookActionsMenu book={buildBook({ oneshot: true })} />, buildAdmin());
    const items = await openMenu(app.user, 'Chapter One');
    expect(items).toContain('Add to collection');
    await app.user.click(screen.getByRole('menuitem', { name: 'Refresh metadata' }));
    expect(await screen.findByText('Metadata refresh of Chapter One queued')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
      '/api/v1/books/book-1/metadata/refresh',
      '/api/v1/series/series-1/metadata/refresh',
    ]);
  });

  it('shows the failure of an action', async () => {
    stubFetch({ 'POST /api/v1/books/book-1/analyze': { status: 403, json: { message: 'Forbidden' } } });
    const app = render(<BookActionsMenu book={buildBook()} />, buildAdmin());
    await openMenu(app.user, 'Chapter One');
    await app.user.click(screen.getByRole('menuitem', { name: 'Analyze' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/not allowed|permission|forbidden/i);
  });
});

describe('SeriesActionsMenu', () => {
  it('gives admins every series action', async () => {
    stubFetch({});
    const app = render(<SeriesActionsMenu series={buildSeries()} />, buildAdmin());
    expect(await openMenu(app.user, 'Saga')).toEqual([
      'Mark as read',
      'Add to collection',
      'Add to read list',
      'Edit',
      'Analyze',
      'Refresh metadata',
      'Download',
      'Delete',
    ]);
    expect(screen.getByRole('menuitem', { name: 'Download' })).toHaveAttribute('href', '/api/v1/series/series-1/file');
  });

  it('gives other users marking and, with FILE_DOWNLOAD, download', async () => {
    stubFetch({});
    const partly = buildSeries({ booksReadCount: 1, booksUnreadCount: 2 });
    const app = render(<SeriesActionsMenu series={partly} />, downloader);
    expect(await openMenu(app.user, 'Saga')).toEqual(['Mark as read', 'Mark as unread', 'Download']);
  });

  it('hides mark as read once every book is read', async () => {
    stubFetch({});
    const read = buildSeries({ booksReadCount: 3, booksUnreadCount: 0 });
    const app = render(<SeriesActionsMenu series={read} />, reader);
    expect(await openMenu(app.user, 'Saga')).toEqual(['Mark as unread']);
  });

  it('marks the series unread', async () => {
    const { requests } = stubFetch({ 'DELETE /api/v1/series/series-1/read-progress': { status: 204 } });
    const app = render(<SeriesActionsMenu series={buildSeries({ booksReadCount: 3, booksUnreadCount: 0 })} />, reader);
    await openMenu(app.user, 'Saga');
    await app.user.click(screen.getByRole('menuitem', { name: 'Mark as unread' }));
    await waitFor(() =>
      expect(requests.map((r) => `${r.method} ${r.path}`)).toContain('DELETE /api/v1/series/series-1/read-progress'),
    );
  });

  it("reads a one-shot's book from its menu", async () => {
    const book = buildBook({ oneshot: true, seriesId: 'series-1' });
    stubFetch({
      'POST /api/v1/books/list': {
        json: { content: [book], totalPages: 1, totalElements: 1, number: 0, last: true, first: true },
      },
    });
    const app = render(<SeriesActionsMenu series={buildSeries({ oneshot: true, booksCount: 1 })} />, reader);
    await openMenu(app.user, 'Saga');
    await app.user.click(await screen.findByRole('menuitem', { name: 'Read' }));
    expect(app.location()).toBe('/book/book-1/read');
  });
});

describe('CollectionActionsMenu and ReadListActionsMenu', () => {
  it('shows nothing of a collection to non-admins', () => {
    stubFetch({});
    render(<CollectionActionsMenu collection={buildCollection()} />, downloader);
    expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
  });

  it('gives admins edit and delete on a collection', async () => {
    stubFetch({});
    const app = render(<CollectionActionsMenu collection={buildCollection()} />, buildAdmin());
    expect(await openMenu(app.user, 'Space operas')).toEqual(['Edit', 'Delete']);
  });

  it('lets anyone export a read list, FILE_DOWNLOAD download it, admins edit and delete it', async () => {
    stubFetch({});
    const admin = render(<ReadListActionsMenu readList={buildReadList()} />, buildAdmin());
    expect(await openMenu(admin.user, 'Summer reading')).toEqual([
      'Download',
      'Export as ComicRack list (.cbl)',
      'Edit',
      'Delete',
    ]);
    admin.unmount();
    const other = render(<ReadListActionsMenu readList={buildReadList()} />, reader);
    expect(await openMenu(other.user, 'Summer reading')).toEqual(['Export as ComicRack list (.cbl)']);
  });

  it('deletes a collection after the acknowledgement', async () => {
    const { requests } = stubFetch({ 'DELETE /api/v1/collections/col-1': { status: 204 } });
    const onDeleted = vi.fn();
    const app = render(<CollectionActionsMenu collection={buildCollection()} onDeleted={onDeleted} />, buildAdmin());
    await openMenu(app.user, 'Space operas');
    await app.user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete collection' });
    expect(dialog).toHaveTextContent('Its series and your media files will not be affected');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Yes, delete the collection "Space operas"' }));
    await app.user.click(confirm);
    expect(await screen.findByText('Collection Space operas deleted')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/v1/collections/col-1']);
    expect(onDeleted).toHaveBeenCalled();
  });
});
