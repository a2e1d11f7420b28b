import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '@quire/api/operations';
import { sharedPath } from '../support/fixtures.js';
import { startServer, type TestServer } from '../support/server.js';
import { DELIBERATE_DIFFERENCES } from './deliberate-differences.js';
import { diffOperation, operationsOf, type OpenApiDocument } from './openapi-diff.js';

const komga = JSON.parse(readFileSync(sharedPath('reference/komga-openapi.json'), 'utf8')) as OpenApiDocument;
const komgaOperations = new Map(operationsOf(komga).map((o) => [`${o.method} ${o.path}`, o]));

let server: TestServer;
let ours: OpenApiDocument;
beforeAll(async () => {
  server = await startServer();
  const res = await server.fetch('/v3/api-docs');
  expect(res.status).toBe(200);
  ours = (await res.json()) as OpenApiDocument;
});
afterAll(() => server?.close());

describe('the OpenAPI document at /v3/api-docs', () => {
  it('has every operation of the table, and nothing else', () => {
    const documented = operationsOf(ours).map((o) => o.operationId);
    expect(documented.sort()).toEqual(Object.keys(operations).sort());
  });

  it("gives Komga's operationId to every operation Komga has at the same method and path", () => {
    for (const op of operationsOf(ours)) {
      const theirs = komgaOperations.get(`${op.method} ${op.path}`);
      if (theirs) expect(op.operationId, `${op.method} ${op.path}`).toBe(theirs.operationId);
      else expect(op.tags, `${op.operationId} is not Komga's: it needs a Quire tag`).toContain('Quire');
    }
  });

  it("matches Komga's contract for every Komga operation, but for the deliberate differences", () => {
    const found: Record<string, string[]> = {};
    for (const op of operationsOf(ours)) {
      if (!komgaOperations.has(`${op.method} ${op.path}`)) continue;
      const differences = diffOperation(ours, komga, op.method, op.path);
      if (differences.length) found[op.operationId] = differences.sort();
    }
    const listed = Object.fromEntries(
      Object.entries(DELIBERATE_DIFFERENCES).map(([id, d]) => [id, Object.keys(d).sort()]),
    );
    expect(found).toEqual(listed);
  });
});
