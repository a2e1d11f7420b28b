import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen } from '../../test/render';
import { buildLibrary, buildUser } from '../../test/fixtures';
import { getPreferences, resetPreferences } from '../../app/preferences';
import { stubFetch, type RecordedRequest } from '../account/fetch-stub';
import { buildSeries, page } from '../../test/fixtures';
import { seriesFilterCondition, letterCondition, tokenCondition } from './series-filters';

beforeEach(() => resetPreferences());
afterEach(() => {
  vi.unstubAllGlobals();
  resetPreferences();
});

const series = [
  buildSeries({ id: 's1' }, { title: 'Alpha', titleSort: 'Alpha' }),
  buildSeries({ id: 's2' }, { title: 'Beta', titleSort: 'Beta' }),
];

function open(route = '/libraries/lib-1/series') {
  const net = stubFetch({
    'POST /api/v1/series/list': { json: page(series) },
    'POST /api/v1/series/list/alphabetical-groups': {
      json: [
        { group: 'a', count: 1 },
        { group: 'b', count: 1 },
        { group: '1', count: 2 },
      ],
    },
    'GET /api/v1/genres': { json: ['Action', 'Drama'] },
    'GET /api/v1/tags': { json: [] },
    'GET /api/v1/publishers': { json: [] },
    'GET /api/v1/languages': { json: ['en'] },
    'GET /api/v1/age-ratings': { json: [] },
    'GET /api/v1/series/release-dates': { json: ['2021-04-01'] },
    'GET /api/v1/sharing-labels': { json: [] },
    'GET /api/v1/collections': { json: page([]) },
    'GET /api/v1/readlists': { json: page([]) },
  });
  const app = renderScreen(null, { user: buildUser(), libraries: [buildLibrary()], route });
  return { ...app, ...net };
}

const lastList = (requests: RecordedRequest[]) => requests.filter((r) => r.path === '/api/v1/series/list').at(-1)!;
const query = (location: string) => new URLSearchParams(location.split('?')[1] ?? '');

describe('series filters as search conditions', () => {
  it('turns tokens into the API conditions', () => {
    expect(tokenCondition('readStatus', 'isNot:READ')).toEqual({ readStatus: { operator: 'isNot', value: 'READ' } });
    expect(tokenCondition('genre', 'isNull')).toEqual({ genre: { operator: 'isNull' } });
    expect(tokenCondition('publisher', 'isNotNull')).toEqual({ publisher: { operator: 'isNot', value: '' } });
    expect(tokenCondition('writer', 'is:Jane Doe')).toEqual({
      author: { operator: 'is', value: { name: 'Jane Doe', role: 'writer' } },
    });
    expect(tokenCondition('ageRating', 'is:12')).toEqual({ ageRating: { operator: 'is', value: 12 } });
    expect(tokenCondition('releaseYear', 'is:2021')).toEqual({
      allOf: [
        { releaseDate: { operator: 'after', dateTime: '2020-12-31T12:00:00Z' } },
        { releaseDate: { operator: 'before', dateTime: '2022-01-01T12:00:00Z' } },
      ],
    });
  });

  it('ORs values of a group unless it is in all-of mode, and ANDs groups', () => {
    expect(
      seriesFilterCondition({
        genre: ['is:A', 'is:B'],
        tag: ['is:x', 'isNot:y'],
        allOf: ['tag'],
        complete: ['isTrue'],
      }),
    ).toEqual({
      allOf: [
        { complete: { operator: 'isTrue' } },
        { anyOf: [{ genre: { operator: 'is', value: 'A' } }, { genre: { operator: 'is', value: 'B' } }] },
        { allOf: [{ tag: { operator: 'is', value: 'x' } }, { tag: { operator: 'isNot', value: 'y' } }] },
      ],
    });
  });

  it('matches a letter by its prefix and # by none of them', () => {
    expect(letterCondition('C')).toEqual({ anyOf: [{ titleSort: { operator: 'beginsWith', value: 'c' } }] });
    const others = letterCondition('#') as { allOf: unknown[] };
    expect(others.allOf).toHaveLength(26);
    expect(others.allOf[0]).toEqual({ titleSort: { operator: 'doesNotBeginWith', value: 'a' } });
    expect(letterCondition('ALL')).toBeUndefined();
  });
});

describe('SeriesBrowsePage', () => {
  it('lists the series of the library, sorted by name, in pages of the remembered size', async () => {
    const { requests } = open();
    expect(await screen.findByRole('link', { name: 'Alpha' })).toHaveAttribute('href', '/series/s1');
    const list = lastList(requests);
    expect(query(list.search).get('sort')).toBe('metadata.titleSort,asc');
    expect(query(list.search).get('size')).toBe('20');
    expect(list.body).toEqual({ condition: { libraryId: { operator: 'is', value: 'lib-1' } } });
    expect(screen.getByRole('heading', { name: 'Comics' })).toBeInTheDocument();
  });

  it('puts filters in the URL, sends them as conditions, remembers them and restores them on return', async () => {
    const { user, location, requests, unmount } = open();
    await screen.findByRole('link', { name: 'Alpha' });
    await user.click(screen.getByRole('button', { name: 'Filter and sort' }));
    const drawer = await screen.findByRole('dialog', { name: 'Filter and sort' });

    await user.click(within(drawer).getByRole('checkbox', { name: 'Unread' }));
    expect(query(location()).getAll('readStatus')).toEqual(['is:UNREAD']);
    await waitFor(() =>
      expect(lastList(requests).body).toEqual({
        condition: {
          allOf: [
            { libraryId: { operator: 'is', value: 'lib-1' } },
            { readStatus: { operator: 'is', value: 'UNREAD' } },
          ],
        },
      }),
    );

    // Genre panel: include Action, then a second click excludes it.
    await user.click(within(drawer).getByRole('button', { name: /genre/i }));
    const action = await within(drawer).findByRole('checkbox', { name: 'Action' });
    await user.click(action);
    expect(query(location()).getAll('genre')).toEqual(['is:Action']);
    await user.click(within(drawer).getByRole('checkbox', { name: 'Action' }));
    expect(within(drawer).getByRole('checkbox', { name: 'Action (excluded)' })).toHaveAttribute(
      'aria-checked',
      'mixed',
    );
    expect(query(location()).getAll('genre')).toEqual(['isNot:Action']);
    expect(query(location()).getAll('allOf')).toEqual(['genre']);

    // Sort: a new key starts descending.
    await user.click(within(drawer).getByRole('button', { name: 'Date added' }));
    expect(query(location()).get('sort')).toBe('createdDate,desc');
    await waitFor(() => expect(query(lastList(requests).search).get('sort')).toBe('createdDate,desc'));

    expect(getPreferences().library.filters['lib-1']).toEqual({
      readStatus: ['is:UNREAD'],
      genre: ['isNot:Action'],
      allOf: ['genre'],
    });
    expect(getPreferences().library.sort['lib-1']).toEqual({ key: 'createdDate', order: 'desc' });
    unmount();

    // Back later with a bare URL: the remembered filters return, into the URL too.
    const again = open();
    await waitFor(() => expect(query(again.location()).getAll('readStatus')).toEqual(['is:UNREAD']));
    expect(query(again.location()).getAll('genre')).toEqual(['isNot:Action']);
    expect(query(again.location()).get('sort')).toBe('createdDate,desc');
    await again.user.click(await screen.findByRole('button', { name: 'Filter and sort, 2 filters active' }));
    const drawer2 = await screen.findByRole('dialog', { name: 'Filter and sort' });
    expect(within(drawer2).getByRole('checkbox', { name: 'Unread' })).toHaveAttribute('aria-checked', 'true');

    // Reset clears URL and memory.
    await again.user.click(within(drawer2).getByRole('button', { name: 'Reset' }));
    expect(query(again.location()).getAll('readStatus')).toEqual([]);
    expect(query(again.location()).get('sort')).toBe('metadata.titleSort,asc');
    expect(getPreferences().library.filters['lib-1']).toEqual({});
  });

  it('takes filters from a shared URL over the remembered ones', async () => {
    const { requests } = open('/libraries/lib-1/series?oneShot=isFalse&sort=name,desc&page=2');
    await screen.findByRole('link', { name: 'Alpha' });
    // The first request: the stub's single page then sends the screen back to page 1.
    const list = requests.find((r) => r.path === '/api/v1/series/list')!;
    expect(query(list.search).get('sort')).toBe('name,desc');
    expect(query(list.search).get('page')).toBe('1');
    expect(list.body).toEqual({
      condition: { allOf: [{ libraryId: { operator: 'is', value: 'lib-1' } }, { oneShot: { operator: 'isFalse' } }] },
    });
  });

  it('navigates by letter with counts from the server; empty letters are disabled', async () => {
    const { user, location, requests } = open();
    const nav = await screen.findByRole('navigation', { name: 'Jump to a letter' });
    await waitFor(() => expect(within(nav).getByRole('button', { name: 'All: 4 series' })).toBeInTheDocument());
    expect(within(nav).getByRole('button', { name: 'Other characters: 2 series' })).toBeEnabled();
    expect(within(nav).getByRole('button', { name: 'C: 0 series' })).toBeDisabled();
    await user.click(within(nav).getByRole('button', { name: 'B: 1 series' }));
    expect(query(location()).get('nav')).toBe('B');
    await waitFor(() =>
      expect(lastList(requests).body).toEqual({
        condition: {
          allOf: [
            { libraryId: { operator: 'is', value: 'lib-1' } },
            { anyOf: [{ titleSort: { operator: 'beginsWith', value: 'b' } }] },
          ],
        },
      }),
    );
    expect(within(nav).getByRole('button', { name: 'B: 1 series' })).toHaveAttribute('aria-current', 'true');
    // The counts ignore the letter itself.
    const groups = requests.filter((r) => r.path === '/api/v1/series/list/alphabetical-groups');
    expect(groups.every((r) => JSON.stringify(r.body).indexOf('titleSort') < 0)).toBe(true);
  });

  it('covers every library under "all", with no library condition', async () => {
    const { requests } = open('/libraries/all/series');
    await screen.findByRole('link', { name: 'Alpha' });
    expect(lastList(requests).body).toEqual({});
    expect(screen.getByRole('heading', { name: 'All libraries' })).toBeInTheDocument();
  });
});
