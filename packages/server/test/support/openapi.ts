import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { sharedPath } from './fixtures.js';

type Json = Record<string, unknown>;
const spec = JSON.parse(readFileSync(sharedPath('reference/komga-openapi.json'), 'utf8')) as Json;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const { components, paths } = spec as { components: Json; paths: Json };
/*
 * Komga sends some times as Java LocalDateTimes, without a zone (api.md §1.3: `2025-03-12T03:40:38.123`), while its
 * document calls them `date-time`, which requires one: those properties are checked as local date-times instead.
 */
const LOCAL_DATE_TIMES: [schema: string, property: string][] = [
  ['HistoricalEventDto', 'timestamp'],
  ['PageHashKnownDto', 'created'],
  ['PageHashKnownDto', 'lastModified'],
  ['TransientBookDto', 'fileLastModified'],
];
ajv.addFormat('local-date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);
const schemas = components.schemas as Record<string, { properties?: Record<string, Json> }>;
for (const [schema, property] of LOCAL_DATE_TIMES) {
  const target = schemas[schema]?.properties?.[property];
  if (!target || target.format !== 'date-time') throw new Error(`${schema}.${property} is not a date-time any more`);
  target.format = 'local-date-time';
}
ajv.addSchema({ components, paths }, 'komga');

/**
 * Validates a JSON body against a component schema of Komga's OpenAPI document, e.g. `UserDto`, nulls left out
 * (see withoutNulls). Throws with the ajv errors when it does not match.
 */
export function expectSchema(name: string, body: unknown): void {
  const validate = ajv.getSchema(`komga#/components/schemas/${name}`);
  if (!validate) throw new Error(`No schema ${name} in komga-openapi.json`);
  if (!validate(withoutNulls(body))) {
    throw new Error(
      `Body does not match ${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body, null, 2)}`,
    );
  }
}

/** Komga serialises nulls, but its OpenAPI document marks no property nullable: they are left out before a check. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  return value;
}

type Responses = Record<string, { content?: Record<string, { schema?: object }> }>;

/** A JSON pointer segment: `/` and `~` escaped. */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * What is wrong with `body` as the JSON answer of `method path` with `status` in komga-openapi.json (nulls left out,
 * see above): one line per ajv error, none when it matches.
 */
export function responseProblems(path: string, method: string, body: unknown, status = '200'): string[] {
  const operation = (paths as Record<string, Record<string, { responses?: Responses }>>)[path]?.[method];
  const content = operation?.responses?.[status]?.content ?? {};
  const type = Object.keys(content).find((t) => /json/.test(t));
  if (!type) throw new Error(`No JSON ${status} answer for ${method} ${path} in komga-openapi.json`);
  const at = ['paths', path, method, 'responses', status, 'content', type, 'schema'].map(pointer).join('/');
  const validate = ajv.getSchema(`komga#/${at}`)!;
  return validate(withoutNulls(body)) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

interface SchemaNode {
  $ref?: string;
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

const resolve = (node: SchemaNode): SchemaNode => {
  let n = node;
  while (n.$ref) n = (components as { schemas: Record<string, SchemaNode> }).schemas[n.$ref.split('/').at(-1)!]!;
  return n;
};

/**
 * Properties the contract declares that `body` leaves out, anywhere in it (`content[0].metadata.links`): Komga's
 * Kotlin DTOs send every property, null or not, unless a DTO says otherwise, so a client may read any of them.
 * `omitting` names the schemas whose absent properties are allowed (DTOs that leave nulls or empty values out).
 */
export function absentProperties(
  path: string,
  method: string,
  body: unknown,
  omitting: readonly string[] = [],
  status = '200',
) {
  const operation = (paths as Record<string, Record<string, { responses?: Responses }>>)[path]?.[method];
  const content = operation?.responses?.[status]?.content ?? {};
  const type = Object.keys(content).find((t) => /json/.test(t))!;
  const out: string[] = [];
  const walk = (raw: SchemaNode, value: unknown, at: string) => {
    const name = raw.$ref?.split('/').at(-1);
    const node = resolve(raw);
    if (value === null || value === undefined) return;
    for (const alternative of [...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.allOf ?? [])])
      walk(alternative, value, at);
    if (Array.isArray(value) && node.items) value.forEach((v, i) => walk(node.items!, v, `${at}[${i}]`));
    if (typeof value !== 'object' || Array.isArray(value)) return;
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      if (!(key in record)) {
        if (!name || !omitting.includes(name)) out.push(`${at}.${key}${name ? ` (${name})` : ''}`);
      } else walk(child, record[key], `${at}.${key}`);
    }
    if (typeof node.additionalProperties === 'object')
      for (const [key, v] of Object.entries(record)) walk(node.additionalProperties, v, `${at}.${key}`);
  };
  walk((content[type] as { schema: SchemaNode }).schema, body, '');
  return out;
}
