import type { ErrorCode } from '@quire/api/constants';

/**
 * The one error type of the server. `message` is what Komga puts in the error body's `message`
 * (often an ERR_xxxx code the web client translates); `status` is the HTTP status it maps to.
 */
export class QuireError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly violations?: { fieldName: string; message: string }[],
  ) {
    super(message);
    this.name = 'QuireError';
  }
}

export const badRequest = (message: string | ErrorCode = 'Bad Request') => new QuireError(400, message);
export const unauthorized = (message = 'Unauthorized') => new QuireError(401, message);
export const forbidden = (message = 'Forbidden') => new QuireError(403, message);
export const notFound = (message = 'Not Found') => new QuireError(404, message);
export const conflict = (message = 'Conflict') => new QuireError(409, message);
export const tooManyRequests = (message = 'Too Many Requests') => new QuireError(429, message);
/** A bean-validation style failure: 400 with `{violations: [...]}`. */
export const invalid = (violations: { fieldName: string; message: string }[]) =>
  new QuireError(400, 'Validation failed', violations);
