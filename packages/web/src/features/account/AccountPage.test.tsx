import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiKeyDto, UserDto } from '@quire/api';
import { authKeys } from '../../api/auth';
import { AccountPage } from './AccountPage';
import { renderScreen } from '../../test/render';
import { stubFetch } from './fetch-stub';

afterEach(() => vi.unstubAllGlobals());

// The server's address as the page sees it (with a context path: reading-apps.test.ts).
const server = window.location.origin;

const me: UserDto = {
  id: 'u1',
  email: 'me@example.org',
  roles: ['FILE_DOWNLOAD', 'USER'],
  sharedAllLibraries: true,
  sharedLibrariesIds: [],
  labelsAllow: [],
  labelsExclude: [],
};
const key = (id: string, comment: string, plain = '******'): ApiKeyDto => ({
  id,
  userId: 'u1',
  key: plain,
  comment,
  createdDate: '2026-01-02T03:04:05Z',
  lastModifiedDate: '2026-01-02T03:04:05Z',
});
const emptyPage = {
  content: [],
  pageable: { pageNumber: 0, pageSize: 20, offset: 0, paged: true, unpaged: false, sort: {} },
  totalElements: 0,
  totalPages: 0,
  last: true,
  first: true,
  size: 20,
  number: 0,
  numberOfElements: 0,
  empty: true,
  sort: { empty: false, sorted: true, unsorted: false },
};

function renderAccount(user: UserDto = me) {
  const net = stubFetch({
    'GET /api/v2/users/me/api-keys': { json: [key('k1', 'Kobo Libra')] },
    'POST /api/v2/users/me/api-keys': { json: key('k2', 'KOReader', '0123456789abcdef0123456789abcdef') },
    'DELETE /api/v2/users/me/api-keys/k1': { status: 204 },
    'DELETE /api/v1/syncpoints/me': { status: 204 },
    'GET /api/v2/users/me/authentication-activity': { json: emptyPage },
  });
  renderScreen(<AccountPage />, { seed: [[authKeys.me, user]] });
  return net;
}

describe('AccountPage', () => {
  it('shows the e-mail, roles and an empty activity table', async () => {
    const { requests } = renderAccount();
    expect(screen.getByText('me@example.org')).toBeInTheDocument();
    expect(screen.getByText('File download')).toBeInTheDocument();
    expect(await screen.findByText('No authentication activity yet.')).toBeInTheDocument();
    expect(requests.find((r) => r.path.endsWith('authentication-activity'))?.search).toBe(
      '?page=0&size=20&sort=dateTime%2Cdesc',
    );
  });

  it('requires a comment, then shows the new key once with a warning', async () => {
    const { requests } = renderAccount();
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate an API key' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Comment/ }), 'KOReader');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await within(dialog).findByDisplayValue('0123456789abcdef0123456789abcdef')).toBeInTheDocument();
    expect(within(dialog).getByText("Copy your API key now. It won't be shown again.")).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ comment: 'KOReader' });
  });

  it('deletes an API key only after the confirmation is ticked', async () => {
    const { requests } = renderAccount();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete API key Kobo Libra' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete API key' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await userEvent.click(
      within(dialog).getByRole('checkbox', { name: 'I understand, delete the API key "Kobo Libra"' }),
    );
    await userEvent.click(confirm);
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(requests.find((r) => r.method === 'DELETE')?.path).toBe('/api/v2/users/me/api-keys/k1');
  });

  it('tells every user which addresses OPDS apps take, with their password', async () => {
    renderAccount();
    const apps = screen.getByRole('region', { name: 'Connect a reading app' });
    expect(within(apps).getByText(/sign in with your e-mail and password, not with an API key/)).toBeInTheDocument();
    expect(within(apps).getByRole('textbox', { name: 'OPDS 1.2 catalog' })).toHaveValue(`${server}/opds/v1.2/catalog`);
    expect(within(apps).getByRole('textbox', { name: 'OPDS 2 catalog' })).toHaveValue(`${server}/opds/v2/catalog`);
    // Without the sync roles the sync protocols refuse the user: nothing about them is offered.
    expect(within(apps).queryByRole('region', { name: 'KOReader progress sync' })).not.toBeInTheDocument();
    expect(within(apps).queryByRole('region', { name: 'Kobo sync' })).not.toBeInTheDocument();
    expect(within(apps).queryByText(/kobo/i)).not.toBeInTheDocument();

    const copy = within(apps).getByRole('button', { name: 'Copy OPDS 2 catalog' });
    await userEvent.click(copy);
    expect(await navigator.clipboard.readText()).toBe(`${server}/opds/v2/catalog`);
    await waitFor(() => expect(copy).toHaveAccessibleDescription('Copied!'));
  });

  it('shows KOReader and Kobo set-up to a user with the sync roles', () => {
    renderAccount({ ...me, roles: ['KOREADER_SYNC', 'KOBO_SYNC', 'USER'] });
    const koreader = screen.getByRole('region', { name: 'KOReader progress sync' });
    expect(within(koreader).getByText(/log in with an API key as the username and any password/)).toBeInTheDocument();
    expect(within(koreader).getByRole('textbox', { name: 'Custom sync server' })).toHaveValue(`${server}/koreader`);
    expect(within(koreader).getByText(/Compute hash for KOReader/)).toBeInTheDocument();
    const kobo = screen.getByRole('region', { name: 'Kobo sync' });
    expect(within(kobo).getByText(/\.kobo\/Kobo\/Kobo eReader\.conf/)).toBeInTheDocument();
    expect(within(kobo).getByText(`api_endpoint=${server}/kobo/<API key>`)).toBeInTheDocument();
  });

  it('shows only the KOReader set-up to a user with only that sync role', () => {
    renderAccount({ ...me, roles: ['KOREADER_SYNC', 'USER'] });
    expect(screen.getByRole('region', { name: 'KOReader progress sync' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Kobo sync' })).not.toBeInTheDocument();
  });

  it("shows the new key's Kobo address once, copyable, to a Kobo user", async () => {
    renderAccount({ ...me, roles: ['KOBO_SYNC', 'KOREADER_SYNC', 'USER'] });
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate an API key' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Comment/ }), 'Kobo Clara');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const address = await within(dialog).findByRole('textbox', { name: 'Kobo address (api_endpoint)' });
    expect(address).toHaveValue(`${server}/kobo/0123456789abcdef0123456789abcdef`);
    expect(within(dialog).getByText(/section \[OneStoreServices\], set api_endpoint/)).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        `For KOReader progress sync, log in with this key as the username and any password, with ${server}/koreader as the custom sync server.`,
      ),
    ).toBeInTheDocument();

    const copy = within(dialog).getByRole('button', { name: 'Copy Kobo address (api_endpoint)' });
    await userEvent.click(copy);
    expect(await navigator.clipboard.readText()).toBe(`${server}/kobo/0123456789abcdef0123456789abcdef`);
    await waitFor(() => expect(copy).toHaveAccessibleDescription('Copied!'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy API key' }));
    expect(await navigator.clipboard.readText()).toBe('0123456789abcdef0123456789abcdef');
  });

  it("shows no Kobo address in the new key's dialog without the Kobo role", async () => {
    renderAccount();
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate an API key' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Comment/ }), 'Script');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(await within(dialog).findByDisplayValue('0123456789abcdef0123456789abcdef')).toBeInTheDocument();
    expect(within(dialog).queryByText(/kobo|koreader/i)).not.toBeInTheDocument();
  });

  it("lets a Kobo user make a key's Kobo sync everything again, after a confirmation", async () => {
    const { requests } = renderAccount({ ...me, roles: ['KOBO_SYNC', 'USER'] });
    await userEvent.click(await screen.findByRole('button', { name: 'Force Kobo sync for Kobo Libra' }));
    const dialog = await screen.findByRole('dialog', { name: 'Force Kobo sync' });
    expect(within(dialog).getByText(/at its next sync, the Kobo receives the whole library again/)).toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/v1/syncpoints/me')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sync everything again' }));
    expect(await screen.findByText('The Kobo will sync everything at its next sync')).toBeInTheDocument();
    const reset = requests.find((r) => r.path === '/api/v1/syncpoints/me');
    expect(reset?.method).toBe('DELETE');
    expect(reset?.search).toBe('?key_id=k1');
  });

  it('offers no Kobo sync reset to a user without the Kobo role', async () => {
    renderAccount();
    expect(await screen.findByRole('button', { name: 'Delete API key Kobo Libra' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Force Kobo sync/ })).not.toBeInTheDocument();
  });
});
