/** Password change rules (spec §5): the new password is required and the repeat must match it. */
export interface PasswordForm {
    password: string;
    repeat: string;
}
export type PasswordError = 'required' | 'mismatch';
export declare function validatePasswordForm(form: PasswordForm): {
    password?: PasswordError;
    repeat?: PasswordError;
};
