import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';

/** Parameters whose values are not comma lists: sort orders and `name,role` pairs. */
const NOT_SPLIT = new Set(['sort', 'author']);
const TRUE = new Set(['true', 'on', 'yes', '1']);
const FALSE = new Set(['false', 'off', 'no', '0']);

interface PropertySchema {
  type?: string | string[];
  items?: PropertySchema;
  enum?: unknown[];
  anyOf?: PropertySchema[];
  const?: unknown;
  properties?: Record<string, PropertySchema>;
  /** A recursive schema (the search conditions): its definitions, and references to them by name. */
  $defs?: Record<string, PropertySchema>;
  $ref?: string;
}

/** How Spring Boot's lenient enum conversion compares names: letters and digits only, any case. */
const canonical = (value: string) => value.replace(/[^a-z0-9]/gi, '').toLowerCase();

/** The constants of an enum schema (`Type.Enum` or a union of string literals), or null. */
function enumConstants(schema: PropertySchema | undefined): string[] | null {
  const constants = (schema?.enum ?? schema?.anyOf?.map((s) => s.const))?.filter((c) => c !== null);
  return constants?.length && constants.every((c) => typeof c === 'string') ? (constants as string[]) : null;
}

/**
 * A boolean as Spring converts one: true/on/yes/1 or false/off/no/0 in any case; an empty value is no value
 * (undefined); anything else is not a boolean (null).
 */
export function springBoolean(value: string): boolean | undefined | null {
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  return TRUE.has(v) ? true : FALSE.has(v) ? false : null;
}

/** One value as Spring converts it for its declared type; undefined when it stands for "no value". */
function scalar(value: string, schema: PropertySchema | undefined): string | undefined {
  if (schema?.type === 'boolean') {
    const b = springBoolean(value);
    return b === null ? value : b === undefined ? undefined : String(b);
  }
  if (schema?.type === 'integer' || schema?.type === 'number') return value.trim() === '' ? undefined : value;
  const constants = enumConstants(schema);
  if (constants) return constants.find((c) => canonical(c) === canonical(value)) ?? value;
  return value;
}

/**
 * A JSON body as Jackson reads it in Komga (api.md §1.2: `accept-case-insensitive-properties/values`): property
 * names and enum values match in any letter case. Everything else is left to the body schema. `defs` are the
 * definitions that `$ref`s of a recursive schema name.
 */
export function bindBody(
  value: unknown,
  schema: PropertySchema | undefined,
  defs: Record<string, PropertySchema> = {},
): unknown {
  if (!schema) return value;
  defs = { ...defs, ...schema.$defs };
  const members = membersOf(schema, defs);
  if (typeof value === 'string') {
    const constants = members.map(enumConstants).find((c) => c) ?? null;
    return constants?.find((c) => canonical(c) === canonical(value)) ?? value;
  }
  if (Array.isArray(value)) {
    const items = members.find((s) => s.items)?.items;
    return items ? value.map((v) => bindBody(v, items, defs)) : value;
  }
  if (value && typeof value === 'object') {
    const properties = memberFor(value as Record<string, unknown>, members)?.properties;
    if (!properties) return value;
    const byLowerName = new Map(Object.keys(properties).map((k) => [k.toLowerCase(), k]));
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => {
        const name = key in properties ? key : (byLowerName.get(key.toLowerCase()) ?? key);
        return [name, bindBody(v, properties[name], defs)];
      }),
    );
  }
  return value;
}

/** The alternatives a value of `schema` may take: itself, or the members of its union, references followed. */
function membersOf(schema: PropertySchema, defs: Record<string, PropertySchema>): PropertySchema[] {
  Object.assign(defs, schema.$defs);
  if (schema.$ref) {
    const target = defs[schema.$ref];
    return target ? membersOf(target, defs) : [];
  }
  if (schema.anyOf && !enumConstants(schema)) return schema.anyOf.flatMap((s) => membersOf(s, defs));
  return [schema];
}

/**
 * The member of a union that an object is meant for: the first whose properties hold one of its keys and whose
 * constants (an operator's name) it carries; else the first with properties.
 */
function memberFor(value: Record<string, unknown>, members: PropertySchema[]): PropertySchema | undefined {
  const objects = members.filter((s) => s.properties);
  const keys = Object.keys(value).map((k) => k.toLowerCase());
  const fits = (s: PropertySchema) =>
    Object.keys(s.properties!).some((name) => keys.includes(name.toLowerCase())) &&
    Object.entries(s.properties!).every(([name, p]) => p.const === undefined || value[name] === p.const);
  return objects.find(fits) ?? objects[0];
}

/**
 * Requests as Spring binds them, before the route's schemas validate them: the JSON body through bindBody, and
 * query parameters as Spring MVC binds them (api.md §1.2, §1.5): a parameter the route does not declare is ignored (dropped, so that no handler ever reads it unvalidated);
 * arrays come from repeated keys, PHP-style `key[]` (merged with plain ones) or one comma list (items trimmed);
 * booleans are true/on/yes/1 or false/off/no/0 in any case; enum values match in any case; an empty boolean or
 * number is no value. Whatever is still wrong then fails validation: a 400.
 */
export const bindingPlugin: FastifyPluginAsync = fp(async (app) => {
  app.addHook('preValidation', (req, _reply, done) => {
    const body = req.routeOptions.schema?.body as PropertySchema | undefined;
    if (body && req.body !== undefined) req.body = bindBody(req.body, body);
    const properties = (req.routeOptions.schema?.querystring as { properties?: Record<string, PropertySchema> })
      ?.properties;
    if (!properties) return done();
    const raw = (req.query ?? {}) as Record<string, string | string[] | undefined>;
    const query: Record<string, string | string[]> = {};
    for (const [key, schema] of Object.entries(properties)) {
      const values = [raw[key], raw[`${key}[]`]].flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
      if (values.length === 0) continue;
      if (schema.type === 'array') {
        const items =
          values.length === 1 && !NOT_SPLIT.has(key)
            ? values[0]!
                .split(',')
                .map((v) => v.trim())
                .filter((v) => v !== '')
            : values;
        query[key] = items.flatMap((v) => scalar(v, schema.items) ?? []);
      } else {
        const value = scalar(values[0]!, schema);
        if (value !== undefined) query[key] = value;
      }
    }
    req.query = query;
    done();
  });
});
