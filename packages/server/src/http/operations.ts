import swagger from '@fastify/swagger';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteShorthandOptions,
} from 'fastify';
import {
  operations,
  type Access,
  type BodyOf,
  type HeadersOf,
  type Operation,
  type OperationId,
  type Operations,
  type ParamsOf,
  type QueryOf,
  type SuccessOf,
} from '@quire/api/operations';
import type { CurrentUser } from '../domain/user.js';

/** The request a handler receives: typed by its operation's schemas, which the server validated. */
export type OperationRequest<O extends Operation> = FastifyRequest<{
  Params: ParamsOf<O>;
  Querystring: QueryOf<O>;
  Headers: HeadersOf<O>;
  Body: BodyOf<O>;
}> &
  (O['access'] extends 'public' | 'optional' | 'handler' ? unknown : { user: CurrentUser });

/** Answers with the success body, or sends through `reply` itself (another status, a stream, bytes). */
export type HandlerFunction<O extends Operation> = (
  req: OperationRequest<O>,
  reply: FastifyReply,
) => Promise<SuccessOf<O> | FastifyReply>;

/** A handler, or a handler with route options its operation needs (a larger body limit for an upload…). */
export type Handler<O extends Operation> =
  | HandlerFunction<O>
  | { handler: HandlerFunction<O>; options: Pick<RouteShorthandOptions, 'bodyLimit' | 'config' | 'exposeHeadRoute'> };

/** Handlers for a set of operations: one for each, no more. */
export type Handlers<Id extends OperationId> = { [K in Id]: Handler<Operations[K]> };

/** The operations of one tag group, e.g. `OperationIdsOf<typeof libraryOperations>`. */
export type OperationIdsOf<Group> = keyof Group & OperationId;

/**
 * Registers every operation of the contract with its handler: the only way a route of the API comes to exist.
 * The schemas validate the request and serialise the answer; `access` becomes the authentication hook.
 */
export function registerOperations(app: FastifyInstance, handlers: Handlers<OperationId>): void {
  for (const id of Object.keys(operations) as OperationId[]) {
    registerRoute(app, operations[id], handlers[id] as Handler<Operation>, operations[id].path);
  }
}

/**
 * Serves an operation's handler at another path too, as Komga maps some controller methods to both `/api/v1/…` and
 * `/opds/v2/…` (api.md §7.2): the same schemas, binding and access. Out of the API document, as Komga leaves its
 * OPDS paths out of its own (an untagged route is hidden).
 */
export function registerAlias<Id extends OperationId>(
  app: FastifyInstance,
  id: Id,
  path: string,
  handler: Handler<Operations[Id]>,
): void {
  registerRoute(app, operations[id], handler as Handler<Operation>, path);
}

function registerRoute(app: FastifyInstance, operation: Operation, entry: Handler<Operation>, path: string): void {
  const documented = path === operation.path;
  const { handler, options } = typeof entry === 'function' ? { handler: entry, options: {} } : entry;
  const onRequest = accessHook(app, operation.access);
  // A multipart body is read part by part by its handler (uploads are streamed, not parsed into an object), so
  // Fastify cannot validate it; its schema is shown in the document through `openapiBody`.
  const multipart = operation.consumes?.includes('multipart/form-data') ?? false;
  app.route({
    method: operation.method,
    url: routeUrl({ path, restParam: operation.restParam }),
    schema: {
      ...(documented ? { operationId: operation.operationId, tags: [...operation.tags] } : {}),
      ...(operation.summary ? { summary: operation.summary } : {}),
      ...(operation.description ? { description: operation.description } : {}),
      ...(operation.deprecated ? { deprecated: true } : {}),
      ...(operation.params ? { params: operation.params } : {}),
      ...(operation.query ? { querystring: operation.query } : {}),
      ...(operation.headers ? { headers: operation.headers } : {}),
      ...(operation.body && !multipart ? { body: operation.body } : {}),
      ...(operation.consumes ? { consumes: [...operation.consumes] } : {}),
      ...(operation.produces ? { produces: [...operation.produces] } : {}),
      response: operation.responses,
      ...(operation.access === 'public' || operation.access === 'optional' ? { security: [] } : {}),
    },
    ...(onRequest ? { onRequest } : {}),
    preValidation: [
      ...(operation.restParam ? [restParamHook(operation.restParam)] : []),
      ...(operation.optionalBody ? [emptyBodyHook] : []),
    ],
    ...options,
    config: {
      ...options.config,
      ...(documented ? { openapiPath: operation.path } : {}),
      ...(multipart && operation.body ? { openapiBody: operation.body } : {}),
      ...(operation.optionalBody ? { optionalBody: true } : {}),
    },
    handler: handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}

/** `/books/{bookId}` → `/books/:bookId`; the rest parameter becomes Fastify's wildcard. */
export function routeUrl(operation: Pick<Operation, 'path' | 'restParam'>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === operation.restParam ? '*' : `:${name}`));
}

function accessHook(app: FastifyInstance, access: Access): onRequestHookHandler | undefined {
  switch (access) {
    case 'public':
    case 'handler':
      return undefined;
    case 'optional':
      return app.authenticateIfAny;
    case 'user':
      return app.authenticate;
    default:
      return app.requireRole(access);
  }
}

/** Fastify names the rest of the path `*`; the operation names it. */
function restParamHook(name: string) {
  return async (req: FastifyRequest) => {
    const params = req.params as Record<string, string>;
    params[name] = params['*'] ?? '';
    delete params['*'];
  };
}

/**
 * A request without a body, to an operation whose body is optional, is handled as an empty one (an empty JSON body
 * comes here without one: routes/index.ts).
 */
async function emptyBodyHook(req: FastifyRequest) {
  req.body ??= {};
}

/**
 * `@fastify/swagger`, registered before the operations: it collects each route's schema, and the document is
 * what `GET /v3/api-docs` answers (where Komga serves its own). Paths are written as the table writes them.
 */
export async function registerApiDocs(app: FastifyInstance, info: { version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version: info.version,
        description: "Komga's HTTP API as Quire serves it, with Quire's own additions under their own tags.",
      },
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ basicAuth: [] }, { apiKey: [] }],
    },
    hideUntagged: true,
    // Spring writes a trailing wildcard as a literal `*` (`/books/{bookId}/file/*`), @fastify/swagger as `{*}`.
    // @fastify/swagger marks every body required (Fastify validates a declared one); an optional one is not.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      for (const operation of Object.values(operations) as Operation[]) {
        if (!operation.optionalBody) continue;
        const method = operation.method.toLowerCase() as Lowercase<Operation['method']>;
        const body = openapiObject.paths?.[operation.path]?.[method]?.requestBody;
        if (body && 'required' in body) delete body.required;
      }
      const paths = Object.entries(openapiObject.paths ?? {}).map(([path, item]) => [
        path.replace(/\{\*\}$/, '*'),
        item,
      ]);
      return { ...openapiObject, paths: Object.fromEntries(paths) };
    },
    transform: ({ schema, url, route }) => ({
      schema: route.config?.openapiBody ? { ...schema, body: route.config.openapiBody } : schema,
      url: route.config?.openapiPath ?? url,
    }),
  });
}
