import { Type, type Static, type TObject, type TSchema } from 'typebox';

/**
 * One HTTP operation of the contract, declared once: the server registers its route from it (validation,
 * serialisation, access), the OpenAPI document is emitted from it, and the web client's calls are typed by it.
 * Komga's operations keep Komga's `operationId` (komga-openapi.json); Quire's own additions carry a Quire tag.
 */
export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI form: `/api/v1/books/{bookId}`. */
  path: string;
  tags: readonly string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  /** Who may call it; the server enforces it before the handler runs. */
  access: Access;
  /** The last path parameter takes the rest of the path, slashes included (`/resource/{resource}`). */
  restParam?: string;
  params?: TObject;
  query?: TObject;
  headers?: TObject;
  body?: TSchema;
  /**
   * Komga's `@RequestBody(required = false)`: a request without a body is handled as an empty one (`{}`), and the
   * document does not mark the body required. Only for bodies whose properties are all optional.
   */
  optionalBody?: true;
  /** Request media types when not JSON (multipart uploads). */
  consumes?: readonly string[];
  /** Status → answer. JSON answers are TypeBox schemas; bytes use `binary()`, no body `empty()`. */
  responses: Readonly<Record<number, TSchema>>;
  /** Media types of the answer when not (only) JSON. */
  produces?: readonly string[];
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * - `public`: no authentication.
 * - `optional`: the caller's credentials are used when valid, and ignored otherwise (an unknown cookie on a public
 *   endpoint is not a 401).
 * - `user`: any authenticated user; `admin` or a role: that role (api.md §2.6).
 * - `handler`: the handler decides (an EPUB's fonts are public, its other resources are not).
 */
export type Access = 'public' | 'optional' | 'user' | 'handler' | 'ADMIN' | RoleAccess;
export type RoleAccess = 'FILE_DOWNLOAD' | 'PAGE_STREAMING' | 'KOBO_SYNC' | 'KOREADER_SYNC';

/** Keeps every literal (method, path, schemas) so that the server and the client are typed by them. */
export const defineOperation = <const O extends Operation>(operation: O): O => operation;

/** The request parts of an operation, as the server's handler and the web client see them. */
export type ParamsOf<O extends Operation> = O['params'] extends TSchema ? Static<O['params']> : Record<string, never>;
export type QueryOf<O extends Operation> = O['query'] extends TSchema ? Static<O['query']> : Record<string, never>;
export type HeadersOf<O extends Operation> = O['headers'] extends TSchema
  ? Static<O['headers']>
  : Record<string, string | undefined>;
export type BodyOf<O extends Operation> = O['body'] extends TSchema ? Static<O['body']> : undefined;

/** The answer of the operation's success status (the lowest 2xx it declares). */
export type SuccessOf<O extends Operation> = O['responses'] extends infer R
  ? 200 extends keyof R
    ? StaticOf<R[200]>
    : 201 extends keyof R
      ? StaticOf<R[201]>
      : 202 extends keyof R
        ? StaticOf<R[202]>
        : 204 extends keyof R
          ? StaticOf<R[204]>
          : never
  : never;
type StaticOf<S> = S extends TSchema ? Static<S> : never;

/** An answer with no body (204, 202, a redirect). */
export const empty = (description: string) => Type.Null({ description });
/** An answer of bytes (a page, a file, a poster): the server sends a Buffer or a stream, never JSON. */
export const binary = (description = 'bytes') =>
  Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description });

/**
 * A multipart upload with its `file` part. Its handler reads the parts as a stream, so the server does not validate
 * this schema (`http/operations.ts`): it documents the request.
 */
export const multipartFile = Type.Object({ file: Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' }) });

/** Komga's answers that carry no body, by status. */
export const noContent = { 204: empty('No Content') } as const;
export const accepted = { 202: empty('Accepted') } as const;
