import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clientSettingsKeys } from '../../api/client-settings';
import { BookCard } from '../../components/browse/BookCard';
import { SeriesCard } from '../../components/browse/SeriesCard';
import { renderScreen } from '../../test/render';
import { buildBook, buildLibrary, buildSeries, buildUser, page } from '../../test/fixtures';
import { stubFetch } from '../account/fetch-stub';
import { GlobalUiSettingsPage } from './GlobalUiSettingsPage';
import { GOJUON_GROUPS, parseSeriesGroups, seriesGroupsValue } from './series-groups';
import { UserUiSettingsPage } from './UserUiSettingsPage';

afterEach(() => vi.unstubAllGlobals());

const user = buildUser();
const admin = buildUser({ roles: ['ADMIN', 'USER', 'FILE_DOWNLOAD', 'PAGE_STREAMING'] });

describe('series groupings', () => {
  it('has the 46 rows of the Gojūon, each matching katakana and voiced forms', () => {
    expect(GOJUON_GROUPS).toHaveLength(46);
    expect(GOJUON_GROUPS.find((g) => g.symbol === 'か')?.prefixes).toEqual(['か', 'カ', 'が', 'ガ']);
    expect(GOJUON_GROUPS.find((g) => g.symbol === 'は')?.prefixes).toEqual(['は', 'ハ', 'ば', 'バ', 'ぱ', 'パ']);
  });

  it('reads back what it stores, and falls back to A–Z on anything else', () => {
    expect(parseSeriesGroups(seriesGroupsValue('japanese'))).toEqual({ name: 'japanese', groups: GOJUON_GROUPS });
    expect(JSON.parse(seriesGroupsValue('alpha'))).toMatchObject({ name: 'alpha', groups: { A: ['a'], Z: ['z'] } });
    for (const bad of [undefined, '', 'not json', '{"name":"x"}', '{"groups":{"A":[1]}}', '{"groups":[]}'])
      expect(parseSeriesGroups(bad).name).toBe('alpha');
    // Another client's groups are used as stored, compared in lower case.
    expect(parseSeriesGroups('{"name":"alpha","groups":{"AB":["A","B"]}}').groups).toEqual([
      { symbol: 'AB', prefixes: ['a', 'b'] },
    ]);
  });
});

describe('GlobalUiSettingsPage', () => {
  it('shows the stored settings and saves them under the reference keys, the OAuth2 pair public', async () => {
    const { requests } = stubFetch({
      'GET /api/v1/client-settings/global/list': {
        json: { 'webui.oauth2.hide_login': { value: 'true', allowUnauthorized: true } },
      },
      'PATCH /api/v1/client-settings/global': { status: 204 },
    });
    renderScreen(<GlobalUiSettingsPage />, { user: admin, route: '/settings/ui' });
    const alpha = await screen.findByRole('radio', { name: 'Alphabetical (A–Z)' });
    expect(alpha).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Hide the login fields when OAuth2 is enabled' })).toBeChecked();
    const auto = screen.getByRole('switch', { name: 'Automatic OAuth2 login' });
    expect(auto).not.toBeChecked();
    expect(auto).toHaveAccessibleDescription(/Requires a single OAuth2 provider/);
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();

    await userEvent.click(screen.getByRole('radio', { name: 'Gojūon (Japanese)' }));
    await userEvent.click(auto);
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.body).toEqual({
      'webui.series_groups': { value: seriesGroupsValue('japanese'), allowUnauthorized: false },
      'webui.oauth2.hide_login': { value: 'true', allowUnauthorized: true },
      'webui.oauth2.auto_login': { value: 'true', allowUnauthorized: true },
    });
  });

  it('discards the changes', async () => {
    stubFetch({ 'GET /api/v1/client-settings/global/list': { json: {} } });
    renderScreen(<GlobalUiSettingsPage />, { user: admin, route: '/settings/ui' });
    const hide = await screen.findByRole('switch', { name: 'Hide the login fields when OAuth2 is enabled' });
    await userEvent.click(hide);
    expect(hide).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(hide).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Discard' })).toBeDisabled();
  });
});

describe('UserUiSettingsPage', () => {
  it('saves the poster settings as the user’s own', async () => {
    const { requests } = stubFetch({
      'GET /api/v1/client-settings/user/list': { json: { 'webui.poster.stretch': { value: 'true' } } },
      'PATCH /api/v1/client-settings/user': { status: 204 },
    });
    renderScreen(<UserUiSettingsPage />, { user, route: '/account/settings-ui' });
    expect(await screen.findByRole('switch', { name: 'Stretch posters to fill their card' })).toBeChecked();
    const blur = screen.getByRole('switch', { name: 'Blur the posters of unread books and series' });
    expect(blur).not.toBeChecked();
    await userEvent.click(blur);
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      'webui.poster.stretch': { value: 'true' },
      'webui.poster.blur_unread': { value: 'true' },
    });
  });
});

describe('posters follow the user settings', () => {
  const readProgress = {
    page: 20,
    completed: true,
    readDate: '2024-03-02T10:00:00Z',
    created: '2024-03-02T10:00:00Z',
    lastModified: '2024-03-02T10:00:00Z',
    deviceId: '',
    deviceName: '',
  };
  const show = (ui: React.ReactElement, settings: Record<string, { value: string }>) => {
    stubFetch({});
    return renderScreen(ui, {
      user,
      libraries: [buildLibrary()],
      seed: [[clientSettingsKeys.user(user.id), settings]],
    });
  };
  const posterOf = (name: string) =>
    screen.getByRole('link', { name }).closest('[data-testid="item-card"]')!.querySelector('img')!;

  it('blurs unread books and fully unread series only when asked', () => {
    const blur = { 'webui.poster.blur_unread': { value: 'true' } };
    show(
      <>
        <BookCard book={buildBook({ id: 'b1' }, { title: 'Unread one' })} />
        <BookCard book={buildBook({ id: 'b2', readProgress }, { title: 'Read one' })} />
        <SeriesCard series={buildSeries({ id: 's1', booksCount: 3, booksUnreadCount: 3 }, { title: 'Untouched' })} />
        <SeriesCard
          series={buildSeries(
            { id: 's2', booksCount: 3, booksUnreadCount: 2, booksReadCount: 1 },
            { title: 'Started' },
          )}
        />
      </>,
      blur,
    );
    expect(posterOf('1 - Unread one')).toHaveStyle({ filter: 'blur(5px)' });
    expect(posterOf('1 - Read one')).not.toHaveStyle({ filter: 'blur(5px)' });
    expect(posterOf('Untouched')).toHaveStyle({ filter: 'blur(5px)' });
    expect(posterOf('Started')).not.toHaveStyle({ filter: 'blur(5px)' });
  });

  it('shows whole posters by default, and fills the card when stretched', () => {
    const { unmount } = show(<BookCard book={buildBook()} />, {});
    expect(posterOf('1 - Chapter One')).toHaveStyle({ objectFit: 'contain' });
    expect(posterOf('1 - Chapter One')).not.toHaveStyle({ filter: 'blur(5px)' });
    unmount();
    show(<BookCard book={buildBook()} />, { 'webui.poster.stretch': { value: 'true' } });
    expect(posterOf('1 - Chapter One')).toHaveStyle({ objectFit: 'cover', objectPosition: 'top' });
  });
});

describe('series browse grouping', () => {
  it('lists the Gojūon rows when the global setting says so, and filters by a row’s prefixes', async () => {
    const { requests } = stubFetch({
      'GET /api/v1/client-settings/global/list': {
        json: { 'webui.series_groups': { value: seriesGroupsValue('japanese') } },
      },
      'POST /api/v1/series/list': { json: page([]) },
      'POST /api/v1/series/list/alphabetical-groups': {
        json: [
          { group: 'か', count: 1 },
          { group: 'ガ', count: 2 },
        ],
      },
    });
    renderScreen(null, { user, libraries: [buildLibrary()], route: '/libraries/lib-1/series' });
    const ka = await screen.findByRole('button', { name: /^か/ });
    await waitFor(() => expect(ka).toBeEnabled());
    expect(screen.queryByRole('button', { name: /^A\b/ })).not.toBeInTheDocument();
    await userEvent.click(ka);
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/v1/series/list').at(-1)?.body).toMatchObject({
        condition: {
          allOf: expect.arrayContaining([
            {
              anyOf: ['か', 'カ', 'が', 'ガ'].map((value) => ({ titleSort: { operator: 'beginsWith', value } })),
            },
          ]),
        },
      }),
    );
  });
});
