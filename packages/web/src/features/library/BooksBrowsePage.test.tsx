import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildAdmin, buildBook, buildLibrary, buildUser, page } from '../../test/fixtures';
import { getPreferences, resetPreferences } from '../../app/preferences';
import { parseSort } from '../../components/browse/filters';
import { stubFetch, type RecordedRequest } from '../account/fetch-stub';
import { bookFilterGroups } from '../items';
import { LIBRARY_BOOK_FILTER_KEYS, libraryBookSortOptions } from './book-filters';

beforeEach(() => resetPreferences());
afterEach(() => {
  vi.unstubAllGlobals();
  resetPreferences();
});

const books = [
  buildBook({ id: 'b1', seriesId: 's1', seriesTitle: 'Alpha' }, { title: 'Dawn', number: '1' }),
  buildBook({ id: 'b2', seriesId: 's2', seriesTitle: 'Beta' }, { title: 'Dusk', number: '2' }),
];

function open(route = '/libraries/lib-1/books', { admin = false, content = books } = {}) {
  const net = stubFetch({
    'POST /api/v1/books/list': { json: page(content) },
    'GET /api/v1/tags/book': { json: ['crime', 'noir'] },
    'GET /api/v2/authors': { json: page([{ name: 'Jane Doe', role: 'writer' }]) },
    'GET /api/v1/collections': { json: page([]) },
    'GET /api/v1/readlists': { json: page([]) },
  });
  const app = renderScreen(null, {
    user: admin ? buildAdmin() : buildUser(),
    libraries: [buildLibrary()],
    route,
  });
  return { ...app, ...net };
}

const lastList = (requests: RecordedRequest[]) => requests.filter((r) => r.path === '/api/v1/books/list').at(-1)!;
const query = (location: string) => new URLSearchParams(location.split('?')[1] ?? '');
const library = { libraryId: { operator: 'is', value: 'lib-1' } };

describe('book filters of the Books tab as search conditions', () => {
  it('turns one-shot, media status, format, tags and authors into conditions (api.md §5.1)', () => {
    expect(
      bookFilterGroups(LIBRARY_BOOK_FILTER_KEYS, {
        readStatus: ['is:UNREAD', 'is:IN_PROGRESS'],
        oneShot: ['isFalse'],
        deleted: ['isTrue'],
        mediaStatus: ['is:ERROR', 'is:UNSUPPORTED'],
        mediaProfile: ['isNot:PDF'],
        tag: ['is:crime', 'isNot:noir'],
        allOf: ['tag'],
        writer: ['isNotNull'],
      }),
    ).toEqual([
      {
        anyOf: [
          { readStatus: { operator: 'is', value: 'UNREAD' } },
          { readStatus: { operator: 'is', value: 'IN_PROGRESS' } },
        ],
      },
      { oneShot: { operator: 'isFalse' } },
      { deleted: { operator: 'isTrue' } },
      { allOf: [{ tag: { operator: 'is', value: 'crime' } }, { tag: { operator: 'isNot', value: 'noir' } }] },
      { mediaProfile: { operator: 'isNot', value: 'PDF' } },
      {
        anyOf: [
          { mediaStatus: { operator: 'is', value: 'ERROR' } },
          { mediaStatus: { operator: 'is', value: 'UNSUPPORTED' } },
        ],
      },
      { author: { operator: 'is', value: { role: 'writer' } } },
    ]);
  });

  it('reads a sort whose key names several properties', () => {
    const options = libraryBookSortOptions((k) => k);
    expect(parseSort('series,metadata.numberSort,desc', options)).toEqual({
      key: 'series,metadata.numberSort',
      order: 'desc',
    });
    expect(parseSort('series,metadata.numberSort', options)).toEqual({
      key: 'series,metadata.numberSort',
      order: 'asc',
    });
    expect(parseSort('fileSize,asc', options)).toEqual({ key: 'fileSize', order: 'asc' });
    expect(parseSort('series', options)).toBeNull();
  });
});

describe('BooksBrowsePage', () => {
  it("lists the library's books by series then number, each card naming its series", async () => {
    const { requests } = open();
    const grid = await screen.findByRole('list', { name: 'Books' });
    expect(await within(grid).findByRole('link', { name: '1 - Dawn' })).toHaveAttribute('href', '/book/b1');
    expect(within(grid).getByRole('link', { name: 'Alpha' })).toHaveAttribute('href', '/series/s1');
    expect(within(grid).getByRole('link', { name: 'Beta' })).toHaveAttribute('href', '/series/s2');
    const list = lastList(requests);
    expect(query(list.search).get('sort')).toBe('series,metadata.numberSort,asc');
    expect(query(list.search).get('size')).toBe('20');
    expect(list.body).toEqual({ condition: library });
    expect(screen.getByRole('heading', { name: 'Comics' })).toBeInTheDocument();
    // The tab is a view of the library, next to Series.
    const views = screen.getByRole('navigation', { name: 'Library views' });
    expect(within(views).getByRole('link', { name: 'Books' })).toHaveAttribute('href', '/libraries/lib-1/books');
    await waitFor(() => expect(getPreferences().library.view['lib-1']).toBe('BOOKS'));
  });

  it('puts filters and sort in the URL, sends them as conditions, remembers them and restores them', async () => {
    const { user, location, requests, unmount } = open();
    await screen.findByRole('link', { name: '1 - Dawn' });
    await user.click(screen.getByRole('button', { name: 'Filter and sort' }));
    const drawer = await screen.findByRole('dialog', { name: 'Filter and sort' });

    await user.click(within(drawer).getByRole('checkbox', { name: 'In progress' }));
    await user.click(within(drawer).getByRole('checkbox', { name: 'One-shot' }));
    await user.click(within(drawer).getByRole('checkbox', { name: 'One-shot' }));
    expect(query(location()).getAll('readStatus')).toEqual(['is:IN_PROGRESS']);
    expect(query(location()).getAll('oneShot')).toEqual(['isFalse']);

    await user.click(within(drawer).getByRole('button', { name: /media status/i }));
    await user.click(await within(drawer).findByRole('checkbox', { name: 'Unsupported' }));
    expect(query(location()).getAll('mediaStatus')).toEqual(['is:UNSUPPORTED']);

    // Tags: the library's book tags.
    await user.click(within(drawer).getByRole('button', { name: /^tag/i }));
    await user.click(await within(drawer).findByRole('checkbox', { name: 'noir' }));
    expect(requests.find((r) => r.path === '/api/v1/tags/book')?.search).toBe('?library_id=lib-1');

    // Authors: searched in the library.
    await user.click(within(drawer).getByRole('button', { name: /^writer/i }));
    await user.type(within(drawer).getByRole('textbox', { name: 'Search Writer' }), 'Jane');
    await user.click(await within(drawer).findByRole('checkbox', { name: 'Jane Doe' }));
    expect(query(location()).getAll('writer')).toEqual(['is:Jane Doe']);
    const authorSearch = requests.find((r) => r.path === '/api/v2/authors')!;
    expect(Object.fromEntries(query(authorSearch.search))).toMatchObject({
      search: 'Jane',
      role: 'writer',
      library_id: 'lib-1',
    });

    // Sort: a new key starts descending.
    await user.click(within(drawer).getByRole('button', { name: 'File size' }));
    expect(query(location()).get('sort')).toBe('fileSize,desc');
    await waitFor(() => expect(query(lastList(requests).search).get('sort')).toBe('fileSize,desc'));
    expect(lastList(requests).body).toEqual({
      condition: {
        allOf: [
          library,
          { readStatus: { operator: 'is', value: 'IN_PROGRESS' } },
          { oneShot: { operator: 'isFalse' } },
          { tag: { operator: 'is', value: 'noir' } },
          { mediaStatus: { operator: 'is', value: 'UNSUPPORTED' } },
          { author: { operator: 'is', value: { name: 'Jane Doe', role: 'writer' } } },
        ],
      },
    });

    // Remembered apart from the series tab's.
    expect(getPreferences().library.bookFilters['lib-1']).toEqual({
      readStatus: ['is:IN_PROGRESS'],
      oneShot: ['isFalse'],
      mediaStatus: ['is:UNSUPPORTED'],
      tag: ['is:noir'],
      writer: ['is:Jane Doe'],
    });
    expect(getPreferences().library.bookSort['lib-1']).toEqual({ key: 'fileSize', order: 'desc' });
    expect(getPreferences().library.filters['lib-1']).toBeUndefined();
    unmount();

    // Back with a bare URL: the remembered filters return, into the URL too; the file-size sort shows sizes.
    const again = open();
    await waitFor(() => expect(query(again.location()).getAll('mediaStatus')).toEqual(['is:UNSUPPORTED']));
    expect(query(again.location()).get('sort')).toBe('fileSize,desc');
    expect(await screen.findAllByText('1 kB')).toHaveLength(2); // 1024 bytes, in the browser's units
    await again.user.click(await screen.findByRole('button', { name: 'Filter and sort, 5 filters active' }));
    const drawer2 = await screen.findByRole('dialog', { name: 'Filter and sort' });
    await again.user.click(within(drawer2).getByRole('button', { name: 'Reset' }));
    expect(query(again.location()).getAll('mediaStatus')).toEqual([]);
    expect(query(again.location()).get('sort')).toBe('series,metadata.numberSort,asc');
    expect(getPreferences().library.bookFilters['lib-1']).toEqual({});
  });

  it('says when the filters match nothing, and resets them', async () => {
    const { user, location } = open('/libraries/lib-1/books?deleted=isTrue', { content: [] });
    expect(await screen.findByText('The active filter has no matches')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(query(location()).getAll('deleted')).toEqual([]);
  });

  it('covers every library under "all", with no library condition', async () => {
    const { user, requests } = open('/libraries/all/books');
    await screen.findByRole('link', { name: '1 - Dawn' });
    expect(lastList(requests).body).toEqual({});
    expect(screen.getByRole('heading', { name: 'All libraries' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Filter and sort' }));
    const drawer = await screen.findByRole('dialog', { name: 'Filter and sort' });
    await user.click(within(drawer).getByRole('button', { name: /^tag/i }));
    await within(drawer).findByRole('checkbox', { name: 'crime' });
    expect(requests.find((r) => r.path === '/api/v1/tags/book')?.search).toBe('');
  });

  it('selects books for the bulk actions books have elsewhere', async () => {
    const { user } = open('/libraries/lib-1/books', { admin: true });
    // the card's overlay controls come in the render after its first (ItemCard)
    await user.click(await screen.findByRole('button', { name: 'Select 1 - Dawn' }));
    const bar = await screen.findByRole('toolbar', { name: 'Selection' });
    expect(within(bar).getByText('1 selected')).toBeInTheDocument();
    for (const action of ['Mark as read', 'Mark as unread', 'Add to read list', 'Edit', 'Delete'])
      expect(within(bar).getByRole('button', { name: action })).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Select everything on this page' }));
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();
  });
});
