import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/*
 * Fastify's own validator (Ajv) and serializer (fast-json-stringify) compilers, each route's schema compiled on the
 * route's first request instead of at start-up. Komga's API has hundreds of operations, most of which a server never
 * answers in a day; compiling all of their validators and serializers up front cost seconds of start-up CPU, and
 * the code and garbage it made stayed in V8's heap: 150 MB resident before any work (issue 18). The compiled code
 * is the same Fastify would have made, so requests see no difference.
 */

type Factory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** A compiled Ajv validator as Fastify calls it (ajv's ValidateFunction, loosely). */
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type Serialize = (data: unknown) => string;
type CompileValidator = (route: unknown) => Validate;
type CompileSerializer = (route: unknown) => Serialize;

// One of each, as Fastify keeps one: they pool compilers by their options and shared schemas.
const validators = AjvCompiler() as unknown as (externalSchemas: unknown, options: unknown) => CompileValidator;
const serializers = SerializerSelector() as unknown as (
  externalSchemas: unknown,
  options: unknown,
) => CompileSerializer;

function buildValidator(externalSchemas: unknown, options: unknown): CompileValidator {
  const compile = validators(externalSchemas, options);
  return (route) => {
    let compiled: Validate | undefined;
    // Fastify reads `errors` after a failed call, and passes the parent (the request) to an Ajv function, which
    // has `schemaEnv`, so that Ajv may coerce the request part itself.
    const validate: Validate = (data, context) => {
      compiled ??= compile(route);
      const result = compiled.schemaEnv ? compiled(data, context) : compiled(data);
      validate.errors = compiled.errors;
      return result;
    };
    validate.schemaEnv = true;
    return validate;
  };
}

function buildSerializer(externalSchemas: unknown, options: unknown): CompileSerializer {
  const compile = serializers(externalSchemas, options);
  return (route) => {
    let compiled: Serialize | undefined;
    return (data) => (compiled ??= compile(route))(data);
  };
}

/** `schemaController.compilersFactory` of the Fastify instance. */
export const lazyCompilers = { buildValidator, buildSerializer } as unknown as Factory;
