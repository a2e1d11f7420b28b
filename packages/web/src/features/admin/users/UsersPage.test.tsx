import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthenticationActivityDto, UserDto } from '@quire/api';
import { authKeys } from '../../../api/auth';
import { userKeys } from '../../../api/users';
import { renderScreen } from '../../../test/render';
import { stubFetch } from '../../account/fetch-stub';
import { page } from '../../../test/fixtures';
import { UsersPage } from './UsersPage';
import { restrictionsUpdate, validateNewUser } from './user-form';

afterEach(() => vi.unstubAllGlobals());

const user = (id: string, email: string, roles: string[]): UserDto => ({
  id,
  email,
  roles: [...roles, 'USER'],
  sharedAllLibraries: true,
  sharedLibrariesIds: [],
  labelsAllow: [],
  labelsExclude: [],
});
const admin = user('u1', 'admin@example.org', ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING']);
const reader = user('u2', 'reader@example.org', ['PAGE_STREAMING']);
const seed: [readonly unknown[], unknown][] = [
  [authKeys.me, admin],
  [userKeys.lists(), [admin, reader]],
];

const activity = (email: string, success: boolean, extra: Partial<AuthenticationActivityDto> = {}) => ({
  userId: email === admin.email ? 'u1' : 'u2',
  email,
  apiKeyId: null,
  apiKeyComment: null,
  ip: '192.0.2.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140',
  success,
  error: success ? null : 'Bad credentials',
  dateTime: '2026-02-03T04:05:06Z',
  source: 'Password',
  ...extra,
});
const activityPage = page(
  [
    activity('admin@example.org', true),
    activity('reader@example.org', false),
    activity('reader@example.org', true, { source: 'ApiKey', apiKeyId: 'k1', apiKeyComment: 'Tablet' }),
  ],
  { totalElements: 45 },
);

function renderUsers(route = '/settings/users') {
  const net = stubFetch({
    'POST /api/v2/users': { status: 201, json: user('u3', 'new@example.org', []) },
    'GET /api/v2/users': { json: [admin, reader] },
    'GET /api/v2/users/authentication-activity': { json: activityPage },
  });
  const view = renderScreen(<UsersPage />, { route, seed });
  return { ...net, ...view };
}

describe('validateNewUser', () => {
  it.each([
    ['', 'pw', { email: 'required' }],
    ['not-an-email', 'pw', { email: 'invalidEmail' }],
    ['a@b', 'pw', { email: 'invalidEmail' }],
    ['a b@c.de', 'pw', { email: 'invalidEmail' }],
    ['a@b.cd', '', { password: 'required' }],
    ['a@b.cd', 'pw', {}],
  ])('%s / %s gives %j', (email, password, errors) => expect(validateNewUser({ email, password })).toEqual(errors));
});

describe('restrictionsUpdate', () => {
  it('sends no age restriction as null and drops library ids when all are shared', () => {
    expect(
      restrictionsUpdate({
        allLibraries: true,
        libraryIds: ['l1'],
        restriction: 'NONE',
        age: '12',
        labelsAllow: ['kids'],
        labelsExclude: [],
      }),
    ).toEqual({
      sharedLibraries: { all: true, libraryIds: [] },
      ageRestriction: null,
      labelsAllow: ['kids'],
      labelsExclude: [],
    });
  });
});

describe('UsersPage', () => {
  it('lists users with their roles and latest activity', async () => {
    renderUsers();
    const row = screen.getByRole('listitem', { name: 'reader@example.org' });
    expect(within(row).getByText('Page streaming')).toBeInTheDocument();
    expect(await within(row).findByText('No recent activity')).toBeInTheDocument();
  });

  // spec §2: "Users list with authentication activity" (issue 12, item 12).
  it("shows every user's authentication activity, newest first, with sort and paging by the server", async () => {
    const { requests } = renderUsers();
    const table = await screen.findByRole('table', { name: 'Authentication activity' });
    const activityRequests = () => requests.filter((r) => r.path === '/api/v2/users/authentication-activity');
    const last = () => new URLSearchParams(activityRequests().at(-1)!.search);
    await waitFor(() => expect(activityRequests()).toHaveLength(1));
    expect(Object.fromEntries(last())).toEqual({ page: '0', size: '20', sort: 'dateTime,desc' });

    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'E-mail', 'IP address', 'User agent', 'Source', 'Success', 'API key', 'Error']);
    const rows = await within(table).findAllByRole('row');
    expect(rows).toHaveLength(4);
    const failed = rows[2]!;
    expect(within(failed).getByText('reader@example.org')).toBeInTheDocument();
    expect(within(failed).getByRole('img', { name: 'Failed' })).toBeInTheDocument();
    expect(within(failed).getByText('Bad credentials')).toBeInTheDocument();
    expect(within(failed).getByText('Password')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Tablet')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('API key')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Date' })).toHaveAttribute('aria-sort', 'descending');

    // A column sorts ascending first, then descending; source and API key are not sortable (nor are they in Komga).
    await userEvent.click(within(table).getByRole('button', { name: 'E-mail' }));
    await waitFor(() => expect(last().get('sort')).toBe('email,asc'));
    expect(within(table).getByRole('columnheader', { name: 'E-mail' })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(within(table).getByRole('button', { name: 'E-mail' }));
    await waitFor(() => expect(last().get('sort')).toBe('email,desc'));
    expect(within(table).queryByRole('button', { name: 'Source' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'API key' })).not.toBeInTheDocument();

    // 45 rows: three pages of 20.
    expect(screen.getByText('1–20 of 45')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(last().get('page')).toBe('1'));
    expect(last().get('sort')).toBe('email,desc');
  });

  it('does not let the administrator delete or demote themselves', () => {
    renderUsers();
    const own = screen.getByRole('listitem', { name: 'admin@example.org' });
    expect(within(own).getByRole('button', { name: /^Delete user/ })).toBeDisabled();
    expect(within(own).getByRole('button', { name: /^Edit roles/ })).toBeDisabled();
    expect(within(own).getByText("You can't change your own roles or delete your own account.")).toBeInTheDocument();
    const other = screen.getByRole('listitem', { name: 'reader@example.org' });
    expect(within(other).getByRole('button', { name: /^Delete user/ })).toBeEnabled();
  });

  it('opens the add dialog on /settings/users/add with the default roles ticked', async () => {
    renderUsers('/settings/users/add');
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    expect(within(dialog).getByRole('checkbox', { name: 'File download' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Page streaming' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Administrator' })).not.toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Kobo sync' })).not.toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'KOReader sync' })).not.toBeChecked();
  });

  it('says in one line what each role allows, and grants the sync roles', async () => {
    const { requests } = stubFetch({
      'GET /api/v2/users': { json: [admin, reader] },
      'PATCH /api/v2/users/u2': { status: 204 },
    });
    renderScreen(<UsersPage />, { route: '/settings/users', seed });
    const row = screen.getByRole('listitem', { name: 'reader@example.org' });
    await userEvent.click(within(row).getByRole('button', { name: /^Edit roles/ }));
    const dialog = await screen.findByRole('dialog', { name: /reader@example.org/ });
    const described = (name: string) => within(dialog).getByRole('checkbox', { name });
    expect(described('KOReader sync')).toHaveAccessibleDescription(
      'Syncs reading progress with KOReader, through an API key.',
    );
    expect(described('Kobo sync')).toHaveAccessibleDescription(
      'Syncs EPUB books and reading progress with a Kobo e-reader, through an API key.',
    );
    expect(described('Page streaming')).toHaveAccessibleDescription(
      'Reads comics and PDFs page by page, in the web reader and in OPDS apps.',
    );
    expect(described('File download')).toHaveAccessibleDescription(
      'Downloads book files, from the web client and from OPDS and Kobo apps.',
    );
    expect(described('Administrator')).toHaveAccessibleDescription('Manages libraries, users and server settings.');
    await userEvent.click(described('KOReader sync'));
    await userEvent.click(described('Kobo sync'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      roles: ['PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC'],
    });
  });

  it('keeps the roles the user already holds when others are edited', async () => {
    const synced = user('u3', 'kobo@example.org', ['PAGE_STREAMING', 'KOBO_SYNC']);
    const { requests } = stubFetch({
      'GET /api/v2/users': { json: [admin, synced] },
      'PATCH /api/v2/users/u3': { status: 204 },
    });
    renderScreen(<UsersPage />, {
      route: '/settings/users',
      seed: [
        [authKeys.me, admin],
        [userKeys.lists(), [admin, synced]],
      ],
    });
    const row = screen.getByRole('listitem', { name: 'kobo@example.org' });
    expect(within(row).getByText('Kobo sync')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: /^Edit roles/ }));
    const dialog = await screen.findByRole('dialog', { name: /kobo@example.org/ });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'File download' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({
      roles: ['FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC'],
    });
  });

  it('rejects a bad e-mail address and sends nothing', async () => {
    const { requests } = renderUsers('/settings/users/add');
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'not-an-email');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'secret');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Must be a valid e-mail address')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('requires e-mail and password', async () => {
    renderUsers('/settings/users/add');
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findAllByText('Required')).toHaveLength(2);
  });

  it('creates a user with the chosen roles and goes back to the list', async () => {
    const { requests, router } = renderUsers('/settings/users/add');
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'E-mail' }), 'new@example.org');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'secret');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Administrator' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/users'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      email: 'new@example.org',
      password: 'secret',
      roles: ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING'],
    });
  });

  it('closing the add dialog returns to /settings/users', async () => {
    const { router } = renderUsers('/settings/users/add');
    const dialog = await screen.findByRole('dialog', { name: 'Add user' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/users'));
  });
});

describe('the /settings/users routes', () => {
  it('open the add dialog inside the app for an administrator', async () => {
    stubFetch({ 'GET /api/v2/users': { json: [admin, reader] } });
    renderScreen(null, { route: '/settings/users/add', user: admin, libraries: [], seed });
    expect(await screen.findByRole('dialog', { name: 'Add user' })).toBeInTheDocument();
  });
});
