/**
 * The one way screens reach the server (through the hooks in this folder). Sends the session cookie and
 * `X-Requested-With`, so a 401 never opens the browser's Basic dialog, and turns failures into ApiError.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's `message` (often an ERR_xxxx code), or the first violation's message. */
    message: string,
    readonly violations: { fieldName: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The context path the server was reached under ('' or '/quire'), read from the served index.html. */
export function basePath(): string {
  const base = document.querySelector('base')?.getAttribute('href') ?? '/';
  return new URL(base, window.location.origin).pathname.replace(/\/$/, '');
}

export interface ApiInit extends Omit<RequestInit, 'body'> {
  body?: unknown;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;
}

export function apiUrl(path: string, query?: ApiInit['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return `${basePath()}${path}${qs ? `?${qs}` : ''}`;
}

export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const { body, query, headers, ...rest } = init;
  const h = new Headers(headers);
  h.set('X-Requested-With', 'XMLHttpRequest');
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob || typeof body === 'string') payload = body;
  else if (body !== undefined) {
    h.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }
  const res = await fetch(apiUrl(path, query), { credentials: 'include', ...rest, headers: h, body: payload });
  if (!res.ok) throw await toApiError(res);
  if (res.status === 204 || res.headers.get('Content-Length') === '0') return undefined as T;
  const type = res.headers.get('Content-Type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

async function toApiError(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { message?: string; violations?: { fieldName: string; message: string }[] };
    if (body.violations?.length) return new ApiError(res.status, body.violations[0]!.message, body.violations);
    return new ApiError(res.status, body.message ?? res.statusText);
  } catch {
    return new ApiError(res.status, res.statusText);
  }
}
