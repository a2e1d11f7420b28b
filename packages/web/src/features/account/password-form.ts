/** Password change rules (spec §5): the new password is required and the repeat must match it. */
export interface PasswordForm {
  password: string;
  repeat: string;
}

export type PasswordError = 'required' | 'mismatch';

export function validatePasswordForm(form: PasswordForm): { password?: PasswordError; repeat?: PasswordError } {
  const errors: { password?: PasswordError; repeat?: PasswordError } = {};
  if (!form.password) errors.password = 'required';
  if (!form.repeat) errors.repeat = 'required';
  else if (form.repeat !== form.password) errors.repeat = 'mismatch';
  return errors;
}
