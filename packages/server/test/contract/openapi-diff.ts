/**
 * Compares two OpenAPI documents operation by operation, as a client of the API sees it: the parameters it may
 * send (name, place, required, type, enum), the body it sends, and the success answers it reads (status codes,
 * and each schema's property names, required properties, types and enums). Descriptions, examples, formats,
 * error answers (Komga declares a 400 almost everywhere) and nullability (Komga's document marks nothing
 * nullable) are left out. Each difference is one line, so that a test can compare the list with the deliberate
 * ones.
 */

type Json = Record<string, unknown>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json> };
}

export interface OperationRef {
  method: string;
  path: string;
  operationId: string;
  tags: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function operationsOf(doc: OpenApiDocument): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      out.push({ method, path, operationId: String(op.operationId ?? ''), tags: (op.tags as string[]) ?? [] });
    }
  }
  return out;
}

/** The differences of one operation present in both documents; `[]` when a client sees no difference. */
export function diffOperation(ours: OpenApiDocument, theirs: OpenApiDocument, method: string, path: string): string[] {
  const a = ours.paths[path]?.[method];
  const b = theirs.paths[path]?.[method];
  if (!a || !b) throw new Error(`${method} ${path} is not in both documents`);
  const out: string[] = [];
  if (a.operationId !== b.operationId) out.push(`operationId: ${String(a.operationId)} ≠ ${String(b.operationId)}`);
  out.push(...diffParameters(ours, theirs, a, b));
  out.push(...diffBody(ours, theirs, a, b));
  out.push(...diffResponses(ours, theirs, a, b));
  return out;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}

function diffParameters(ours: OpenApiDocument, theirs: OpenApiDocument, a: Json, b: Json): string[] {
  // Header names are case-insensitive (RFC 9110 §5.1); Fastify declares them in lower case.
  const key = (p: Parameter) => `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  // Headers a client sends for authentication or content negotiation are not parameters of the contract.
  const list = (op: Json) => ((op.parameters as Parameter[] | undefined) ?? []).filter((p) => p.in !== 'cookie');
  const mine = new Map(list(a).map((p) => [key(p), p]));
  const komga = new Map(list(b).map((p) => [key(p), p]));
  const out: string[] = [];
  for (const [k, p] of komga) {
    const q = mine.get(k);
    if (!q) {
      out.push(`parameter ${k}: missing`);
      continue;
    }
    if (Boolean(q.required) !== Boolean(p.required)) out.push(`parameter ${k}: required ${Boolean(q.required)}`);
    out.push(...diffSchema(ours, theirs, q.schema, p.schema, `parameter ${k}`, 'request'));
  }
  for (const k of mine.keys()) if (!komga.has(k)) out.push(`parameter ${k}: extra`);
  return out;
}

function jsonSchemaOf(body: Json | undefined): Json | undefined {
  const content = body?.content as Record<string, { schema?: Json }> | undefined;
  if (!content) return undefined;
  const type = Object.keys(content).find((t) => t.includes('json')) ?? Object.keys(content)[0];
  return type ? (content[type]?.schema ?? {}) : undefined;
}

function diffBody(ours: OpenApiDocument, theirs: OpenApiDocument, a: Json, b: Json): string[] {
  const mine = a.requestBody as Json | undefined;
  const komga = b.requestBody as Json | undefined;
  if (!mine && !komga) return [];
  if (!mine) return ['body: missing'];
  if (!komga) return ['body: extra'];
  const out: string[] = [];
  if (Boolean(mine.required) !== Boolean(komga.required)) out.push(`body: required ${Boolean(mine.required)}`);
  const types = (r: Json) => Object.keys((r.content as Json | undefined) ?? {}).sort();
  const multipart = (r: Json) => types(r).some((t) => t.startsWith('multipart/'));
  if (multipart(mine) !== multipart(komga)) out.push(`body: media types ${types(mine).join(',')}`);
  out.push(...diffSchema(ours, theirs, jsonSchemaOf(mine), jsonSchemaOf(komga), 'body', 'request'));
  return out;
}

/**
 * The success answers of an operation. springdoc names the answer of a Komga handler that declares none (its
 * images) `default`: that is its 200.
 */
function successResponses(op: Json): [string, Json][] {
  const responses = Object.entries((op.responses as Record<string, Json> | undefined) ?? {});
  const success = responses.filter(([code]) => /^2/.test(code));
  const fallback = responses.find(([code]) => code === 'default');
  return success.length === 0 && fallback ? [['200', fallback[1]]] : success;
}

function diffResponses(ours: OpenApiDocument, theirs: OpenApiDocument, a: Json, b: Json): string[] {
  const success = successResponses;
  const mine = new Map(success(a));
  const out: string[] = [];
  for (const [code, r] of success(b)) {
    const q = mine.get(code);
    if (!q) {
      out.push(`response ${code}: missing`);
      continue;
    }
    const komgaJson = jsonSchemaOf(r);
    const content = (r.content as Json | undefined) ?? {};
    if (komgaJson && Object.keys(content).some((t) => t.includes('json')))
      out.push(...diffSchema(ours, theirs, jsonSchemaOf(q), komgaJson, `response ${code}`, 'response'));
  }
  for (const code of mine.keys()) if (!success(b).some(([c]) => c === code)) out.push(`response ${code}: extra`);
  return out;
}

/** A schema with `$ref`s resolved, `allOf` merged and nullability dropped. */
function resolve(doc: OpenApiDocument, schema: Json | undefined, seen = new Set<string>()): Json | undefined {
  if (!schema) return undefined;
  const ref = schema.$ref as string | undefined;
  if (ref) {
    if (seen.has(ref)) return { recursive: ref.split('/').at(-1) };
    const name = ref.replace('#/components/schemas/', '');
    const target = doc.components?.schemas?.[name] ?? (schema.$defs as Record<string, Json> | undefined)?.[name];
    return resolve(doc, target, new Set([...seen, ref]));
  }
  const variants = ((schema.anyOf ?? schema.oneOf) as Json[] | undefined)?.filter((s) => s.type !== 'null');
  if (variants?.length === 1)
    return resolve(doc, { ...schema, anyOf: undefined, oneOf: undefined, ...variants[0] }, seen);
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as Json[]).map((s) => resolve(doc, s, seen) ?? {});
    return parts.reduce(
      (acc, p) => ({
        ...acc,
        ...p,
        properties: { ...(acc.properties as Json), ...(p.properties as Json) },
        required: [...((acc.required as string[]) ?? []), ...((p.required as string[]) ?? [])],
      }),
      {} as Json,
    );
  }
  if (Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((t) => t !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  return schema;
}

const typeOf = (s: Json) => {
  const fromEnum = Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string') ? 'string' : undefined;
  const t = s.type ?? (s.properties ? 'object' : fromEnum);
  return t === 'integer' ? 'number' : t;
};

/**
 * Which way a required flag matters: a client must send what the server requires (a request), and may rely on
 * what the server always sends (an answer).
 */
type Direction = 'request' | 'response';

function diffSchema(
  ours: OpenApiDocument,
  theirs: OpenApiDocument,
  mineRaw: Json | undefined,
  komgaRaw: Json | undefined,
  at: string,
  direction: Direction,
  seen = new Set<string>(),
): string[] {
  const mine = resolve(ours, mineRaw);
  const komga = resolve(theirs, komgaRaw);
  if (!komga || Object.keys(komga).length === 0) return [];
  if (!mine || Object.keys(mine).length === 0) return [`${at}: untyped`];
  if (komga.recursive) {
    if (seen.has(String(komga.recursive))) return [];
    seen = new Set([...seen, String(komga.recursive)]);
  }
  const out: string[] = [];
  const tm = typeOf(mine);
  const tk = typeOf(komga);
  if (tk && tm !== tk) return [`${at}: type ${JSON.stringify(tm)} ≠ ${JSON.stringify(tk)}`];
  if (Array.isArray(komga.enum)) {
    // `null` in an enum is nullability, left out like everywhere else.
    const constants = (e: unknown) => ((e as unknown[] | undefined) ?? []).filter((v) => v !== null).map(String);
    const a = constants(mine.enum).sort();
    const b = constants(komga.enum).sort();
    if (a.join() !== b.join()) out.push(`${at}: enum [${a.join(', ')}] ≠ [${b.join(', ')}]`);
  }
  if (tk === 'array')
    out.push(...diffSchema(ours, theirs, mine.items as Json, komga.items as Json, `${at}[]`, direction, seen));
  if (tk === 'object') {
    const pm = (mine.properties as Record<string, Json> | undefined) ?? {};
    const pk = (komga.properties as Record<string, Json> | undefined) ?? {};
    for (const name of Object.keys(pk)) {
      if (!(name in pm)) out.push(`${at}.${name}: missing`);
      else out.push(...diffSchema(ours, theirs, pm[name], pk[name], `${at}.${name}`, direction, seen));
    }
    for (const name of Object.keys(pm)) if (!(name in pk)) out.push(`${at}.${name}: extra`);
    const rm = new Set((mine.required as string[] | undefined) ?? []);
    const rk = new Set((komga.required as string[] | undefined) ?? []);
    if (direction === 'response')
      for (const name of rk) if (!rm.has(name) && name in pm) out.push(`${at}.${name}: optional (required in Komga)`);
    if (direction === 'request')
      for (const name of rm) if (!rk.has(name) && name in pk) out.push(`${at}.${name}: required (optional in Komga)`);
    if (komga.additionalProperties && typeof komga.additionalProperties === 'object' && !komga.properties)
      out.push(
        ...diffSchema(
          ours,
          theirs,
          mine.additionalProperties as Json,
          komga.additionalProperties as Json,
          `${at}{}`,
          direction,
          seen,
        ),
      );
  }
  return out;
}
