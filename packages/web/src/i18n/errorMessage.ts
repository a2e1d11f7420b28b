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

/** The text to show for any thrown value: the server's (translated) message, else a generic sentence. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && error.message) return translateServerMessage(t, error.message);
  if (error instanceof Error && error.message) return error.message;
  return t('errors.generic');
}
