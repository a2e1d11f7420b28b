import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiKeyDto, UserDto } from '@quire/api';
import { authKeys } from '../../api/auth';
import { AccountPage } from './AccountPage';
import { renderScreen } from '../../test/render';
import { stubFetch } from './fetch-stub';

afterEach(() => vi.unstubAllGlobals());

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

function renderAccount() {
  const net = stubFetch({
    'GET /api/v2/users/me/api-keys': { json: [key('k1', 'Kobo Libra')] },
    'POST /api/v2/users/me/api-keys': { json: key('k2', 'KOReader', '0123456789abcdef0123456789abcdef') },
    'DELETE /api/v2/users/me/api-keys/k1': { status: 204 },
    'GET /api/v2/users/me/authentication-activity': { json: emptyPage },
  });
  renderScreen(<AccountPage />, { seed: [[authKeys.me, me]] });
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
});
