/**
 * Password change rules (spec §5): the new password is required and the repeat must match it; users changing
 * their own password also give the current one (the server asks for it, see docs/architecture.md).
 */
export interface PasswordForm {
  current: string;
  password: string;
  repeat: string;
}

export type PasswordError = 'required' | 'mismatch';
export type PasswordErrors = Partial<Record<keyof PasswordForm, PasswordError>>;

export function validatePasswordForm(form: PasswordForm, opts: { needsCurrent: boolean }): PasswordErrors {
  const errors: PasswordErrors = {};
  if (opts.needsCurrent && !form.current) errors.current = 'required';
  if (!form.password) errors.password = 'required';
  if (!form.repeat) errors.repeat = 'required';
  else if (form.repeat !== form.password) errors.repeat = 'mismatch';
  return errors;
}
