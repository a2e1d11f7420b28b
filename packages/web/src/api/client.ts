import type { EarlyAnswers } from '../early/requests';
import type { BodyOf, Operation, OperationId, Operations, ParamsOf, QueryOf, SuccessOf } from '@quire/api/operations';

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

interface ApiInit extends Omit<RequestInit, 'body'> {
  body?: unknown;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;
}

function apiUrl(path: string, query?: ApiInit['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return `${basePath()}${path}${qs ? `?${qs}` : ''}`;
}

/** One request; the answer is typed by the caller: `client` (by the operation table) or `sendOutsideTable`. */
async function request(path: string, init: ApiInit = {}): Promise<unknown> {
  const { body, query, headers, ...rest } = init;
  const h = new Headers(headers);
  h.set('X-Requested-With', 'XMLHttpRequest');
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob || typeof body === 'string') payload = body;
  else if (body !== undefined) {
    h.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }
  const url = apiUrl(path, query);
  // the same request, already started by the page's first script (src/early/requests.ts)
  const early =
    (payload === undefined || typeof payload === 'string') &&
    (window as EarlyAnswers).quireTakeEarlyAnswer?.(
      rest.method ?? 'GET',
      new URL(url, window.location.origin).href,
      payload,
    );
  return answerOf(await (early || fetch(url, { credentials: 'include', ...rest, headers: h, body: payload })));
}

/** A response's body, typed by the caller, or its ApiError. */
async function answerOf(res: Response): Promise<unknown> {
  if (!res.ok) throw await toApiError(res);
  if (res.status === 204 || res.headers.get('Content-Length') === '0') return undefined;
  const type = res.headers.get('Content-Type') ?? '';
  return type.includes('json') ? await res.json() : await res.text();
}

/**
 * A call to a route outside the operation table: Spring Boot's actuator endpoints, which Komga leaves out of its
 * document (`http/routes/actuator.ts`). Its answer is not typed; every other call goes through `client`.
 */
export const sendOutsideTable = (method: 'POST', path: '/actuator/shutdown'): Promise<unknown> =>
  request(path, { method });

/**
 * A read of Spring Boot's metrics endpoint (`http/routes/metrics.ts`), outside the table for the same reason; its
 * answer is typed by `api/metrics.ts`. `tag` repeats the key, one `key:value` each.
 */
export const getMetricOutsideTable = (name: string, tag: readonly string[] = []): Promise<unknown> =>
  request(`/actuator/metrics/${encodeURIComponent(name)}`, { query: { tag } });

async function toApiError(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { message?: string; violations?: { fieldName: string; message: string }[] };
    if (body.violations?.length) return new ApiError(res.status, body.violations[0]!.message, body.violations);
    return new ApiError(res.status, body.message ?? res.statusText);
  } catch {
    return new ApiError(res.status, res.statusText);
  }
}

/*
 * Typed calls, from the operation table's types (`@quire/api/operations`, imported as types only: no schema
 * reaches the browser). The path is the OpenAPI path of the operation; its parameters, query, body and answer
 * follow from it, so a wrong path, a missing parameter or a wrong body does not compile.
 */
type AnyOperation = Operations[OperationId];
type Method = AnyOperation['method'];
/** The paths that have an operation for `M`. */
export type PathFor<M extends Method> = Extract<AnyOperation, { method: M }>['path'];
/** The operation at `M path`. */
export type OperationAt<M extends Method, P extends string> = Extract<AnyOperation, { method: M; path: P }>;

type Multipart<O extends Operation> = O['consumes'] extends readonly string[] ? FormData : never;
/** A query's arrays may be readonly: the client only reads them. */
type ReadonlyArrays<T> = T extends readonly (infer I)[] ? readonly I[] : T;
type QueryArgs<Q> = { [K in keyof Q]?: ReadonlyArrays<Q[K]> };
/** What a call sends besides the path: `params` when the path has some, `query` and `body` when declared. */
export type CallArgs<O extends Operation> = (O['params'] extends object
  ? { params: ParamsOf<O> }
  : { params?: undefined }) & {
  query?: QueryArgs<QueryOf<O>>;
  body?: BodyOf<O> | Multipart<O>;
} & Omit<RequestInit, 'body' | 'method'>;

/** Calls are optional-argument when the operation needs nothing. */
type Rest<O extends Operation> = O['params'] extends object ? [args: CallArgs<O>] : [args?: CallArgs<O>];

/** The URL of an operation's path, with its parameters filled in (`<img src>`, downloads, the reader's pages). */
export function operationUrl<P extends PathFor<'GET'>>(path: P, ...[args]: Rest<OperationAt<'GET', P>>): string {
  return apiUrl(fillPath(path, args?.params), args?.query as ApiInit['query']);
}

function fillPath(path: string, params: object | undefined): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${path}`);
    return String(value)
      .split('/')
      .map((segment) => encodeURIComponent(segment))
      .join('/');
  });
}

function call<M extends Method>(method: M) {
  return <P extends PathFor<M>>(path: P, ...[args]: Rest<OperationAt<M, P>>): Promise<SuccessOf<OperationAt<M, P>>> => {
    const { params, query, body, ...init } = (args ?? {}) as CallArgs<Operation>;
    return request(fillPath(path, params), { ...init, method, query: query as ApiInit['query'], body }) as Promise<
      SuccessOf<OperationAt<M, P>>
    >;
  };
}

/** `client.get('/api/v1/books/{bookId}', { params: { bookId } })` → `Promise<BookDto>`. */
export const client = {
  get: call('GET'),
  post: call('POST'),
  put: call('PUT'),
  patch: call('PATCH'),
  delete: call('DELETE'),
};
