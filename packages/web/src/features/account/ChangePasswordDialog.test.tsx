import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderScreen } from '../../test/render';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { stubFetch } from './fetch-stub';
import { validatePasswordForm } from './password-form';

afterEach(() => vi.unstubAllGlobals());

describe('validatePasswordForm', () => {
  it.each([
    [
      { current: '', password: '', repeat: '' },
      { current: 'required', password: 'required', repeat: 'required' },
    ],
    [{ current: 'old', password: 'a', repeat: '' }, { repeat: 'required' }],
    [{ current: 'old', password: 'a', repeat: 'b' }, { repeat: 'mismatch' }],
    [{ current: 'old', password: 'secret', repeat: 'secret' }, {}],
  ])('%j gives %j', (form, errors) => expect(validatePasswordForm(form, { needsCurrent: true })).toEqual(errors));

  it('does not ask for the current password of someone else', () => {
    expect(validatePasswordForm({ current: '', password: 'new', repeat: 'new' }, { needsCurrent: false })).toEqual({});
  });
});

describe('ChangePasswordDialog', () => {
  const setup = (props: { userId?: string } = {}, own: { status: number; json?: unknown } = { status: 204 }) => {
    const onChanged = vi.fn();
    const net = stubFetch({
      'PATCH /api/v2/users/me/password': own,
      'PATCH /api/v2/users/u2/password': { status: 204 },
    });
    renderScreen(<ChangePasswordDialog open onClose={() => {}} onChanged={onChanged} {...props} />);
    return { onChanged, ...net };
  };

  it('says every field is required and sends nothing', async () => {
    const { requests } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findAllByText('Required')).toHaveLength(3);
    expect(requests).toHaveLength(0);
  });

  it('says the repeated password must match', async () => {
    const { requests } = setup();
    await userEvent.type(screen.getByLabelText(/^New password/), 'secret');
    await userEvent.type(screen.getByLabelText(/^Repeat new password/), 'secreT');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('changes the own password with the current one, and says other devices will be signed out', async () => {
    const { requests, onChanged } = setup();
    expect(screen.getByText(/other devices will be signed out/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Current password/), 'old-secret');
    await userEvent.type(screen.getByLabelText(/^New password/), 'new-secret');
    await userEvent.type(screen.getByLabelText(/^Repeat new password/), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(requests).toEqual([
      {
        method: 'PATCH',
        path: '/api/v2/users/me/password',
        search: '',
        body: { password: 'new-secret', currentPassword: 'old-secret' },
      },
    ]);
  });

  it.each([
    [{ fieldName: 'currentPassword', message: 'is not the current password' }, 'This is not your current password.'],
    [
      { fieldName: 'password', message: 'must be at least 8 characters long' },
      'The password is too short: it needs at least 8 characters.',
    ],
  ])('explains the server’s refusal %j', async (violation, text) => {
    const { onChanged } = setup({}, { status: 400, json: { violations: [violation] } });
    await userEvent.type(screen.getByLabelText(/^Current password/), 'old-secret');
    await userEvent.type(screen.getByLabelText(/^New password/), 'short');
    await userEvent.type(screen.getByLabelText(/^Repeat new password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(onChanged).not.toHaveBeenCalled();
  });

  it("changes another user's password by id, without a current password", async () => {
    const { requests, onChanged } = setup({ userId: 'u2' });
    expect(screen.queryByLabelText(/^Current password/)).toBeNull();
    await userEvent.type(screen.getByLabelText(/^New password/), 'pw');
    await userEvent.type(screen.getByLabelText(/^Repeat new password/), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(requests[0]).toMatchObject({ path: '/api/v2/users/u2/password', body: { password: 'pw' } });
  });
});
