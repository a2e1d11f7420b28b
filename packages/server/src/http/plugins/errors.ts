import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QuireError } from '../../domain/errors.js';
import { setSecurityHeaders } from './security-headers.js';

const REASONS: Record<number, string> = {
  // Komga's kosync answers "no progress" as an error with status 200 (api.md §8.1).
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Spring Boot's error body (api.md §1.6): one shape for every failure. */
export function errorBody(status: number, message: string, path: string) {
  return {
    timestamp: new Date().toISOString().replace('Z', '+00:00'),
    status,
    error: REASONS[status] ?? 'Error',
    message,
    path: path.split('?')[0] ?? path,
  };
}

/** A failure never carries the validators (Last-Modified, ETag) a handler may have set before it failed. */
export function sendError(reply: FastifyReply, req: FastifyRequest, status: number, message: string) {
  reply.removeHeader('last-modified');
  reply.removeHeader('etag');
  return reply
    .code(status)
    .type('application/json')
    .send(errorBody(status, message, req.url));
}

/**
 * Fastify's `frameworkErrors`: a request it refuses before routing (an undecodable address, a parameter too
 * long) gets the same headers and body as every other failure, instead of Fastify's own bare answer.
 */
export function answerFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  setSecurityHeaders(reply);
  return sendError(reply, req, err.statusCode ?? 400, err.message);
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | QuireError, req, reply) => {
    if (err instanceof QuireError) {
      if (err.violations) return reply.code(400).send({ violations: err.violations });
      return sendError(reply, req, err.status, err.message);
    }
    if ('validation' in err && err.validation) {
      const violations = unique(
        outermostUnions(err.validation).map((v) => ({
          fieldName: validationField(err.validationContext, v.instancePath, v.params),
          message: v.keyword === 'anyOf' ? 'must match one of the accepted forms' : (v.message ?? 'is invalid'),
        })),
      );
      return reply.code(400).send({ violations });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    return sendError(reply, req, status, status >= 500 ? 'Internal Server Error' : err.message);
  });
}

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * A value that matches no member of a union gets one violation at its place, not one per member and reason (a
 * search condition has some twenty members): what it was meant to be cannot be known.
 */
function outermostUnions<V extends ValidationIssue>(issues: V[]): V[] {
  const unions = issues.filter((v) => v.keyword === 'anyOf').map((v) => v.instancePath);
  const within = (path: string, union: string) => path === union || path.startsWith(`${union}/`);
  const outer = unions.filter((u) => !unions.some((o) => o !== u && within(u, o)));
  return issues.filter((v) =>
    outer.every((u) => !within(v.instancePath, u) || (v.keyword === 'anyOf' && v.instancePath === u)),
  );
}

const unique = (violations: { fieldName: string; message: string }[]) =>
  violations.filter(
    (v, i) => violations.findIndex((w) => w.fieldName === v.fieldName && w.message === v.message) === i,
  );

function validationField(context: string | undefined, instancePath: string, params: Record<string, unknown>): string {
  const path = instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = typeof params.missingProperty === 'string' ? params.missingProperty : '';
  const field = [path, missing].filter(Boolean).join('.');
  return field || context || 'body';
}
