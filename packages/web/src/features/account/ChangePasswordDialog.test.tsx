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
      { password: '', repeat: '' },
      { password: 'required', repeat: 'required' },
    ],
    [{ password: 'a', repeat: '' }, { repeat: 'required' }],
    [{ password: 'a', repeat: 'b' }, { repeat: 'mismatch' }],
    [{ password: 'secret', repeat: 'secret' }, {}],
  ])('%j gives %j', (form, errors) => expect(validatePasswordForm(form)).toEqual(errors));
});

describe('ChangePasswordDialog', () => {
  const setup = (props: { userId?: string } = {}) => {
    const onChanged = vi.fn();
    const net = stubFetch({
      'PATCH /api/v2/users/me/password': { status: 204 },
      'PATCH /api/v2/users/u2/password': { status: 204 },
    });
    renderScreen(<ChangePasswordDialog open onClose={() => {}} onChanged={onChanged} {...props} />);
    return { onChanged, ...net };
  };

  it('says both fields are required and sends nothing', async () => {
    const { requests } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
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

  it('changes the own password', async () => {
    const { requests, onChanged } = setup();
    await userEvent.type(screen.getByLabelText(/^New password/), 'secret');
    await userEvent.type(screen.getByLabelText(/^Repeat new password/), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(requests).toEqual([
      { method: 'PATCH', path: '/api/v2/users/me/password', search: '', body: { password: 'secret' } },
    ]);
  });

  it("changes another user's password by id", async () => {
    const { requests, onChanged } = setup({ userId: 'u2' });
    await userEvent.type(screen.getByLabelText(/^New password/), 'pw');
    await userEvent.type(screen.getByLabelText(/^Repeat new password/), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(requests[0]?.path).toBe('/api/v2/users/u2/password');
  });
});
