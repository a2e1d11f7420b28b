import type { TFunction } from 'i18next';
import { ApiError } from '../api/client';

const CODE = /ERR_\d{4}/g;

/** A server message with every `ERR_xxxx` code in it replaced by its translation (unknown codes stay as they are). */
export function translateServerMessage(t: TFunction, message: string): string {
  return message.replace(CODE, (code) => {
    const key = `errors.${code}`;
    const text = t(key);
    return text === key ? code : text;
  });
}

const MIN_LENGTH = /at least (\d+) characters/;

/**
 * What the server says of passwords, in the user's language: too many wrong ones (429), a new one shorter than
 * the server's minimum, a wrong current one. Null for any other error.
 */
export function passwordErrorText(t: TFunction, error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 429) return t('errors.tooManyAttempts');
  for (const v of error.violations) {
    if (v.fieldName === 'currentPassword' && v.message !== 'must not be blank') return t('errors.wrongCurrentPassword');
    const min = /(^|\.)password$/.test(v.fieldName) ? MIN_LENGTH.exec(v.message)?.[1] : undefined;
    if (min) return t('errors.passwordTooShort', { min });
  }
  return null;
}

/** The text to show for any thrown value: the server's (translated) message, else a generic sentence. */
export function errorText(t: TFunction, error: unknown): string {
  const password = passwordErrorText(t, error);
  if (password) return password;
  if (error instanceof ApiError && error.message) return translateServerMessage(t, error.message);
  if (error instanceof Error && error.message) return error.message;
  return t('errors.generic');
}
