import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { sharedPath } from './fixtures.js';

type Json = Record<string, unknown>;
const spec = JSON.parse(readFileSync(sharedPath('reference/komga-openapi.json'), 'utf8')) as Json;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema({ components: (spec as { components: Json }).components }, 'komga');

/**
 * Validates a JSON body against a component schema of Komga's OpenAPI document, e.g. `UserDto`.
 * Throws with the ajv errors when it does not match.
 */
export function expectSchema(name: string, body: unknown): void {
  const validate = ajv.getSchema(`komga#/components/schemas/${name}`);
  if (!validate) throw new Error(`No schema ${name} in komga-openapi.json`);
  if (!validate(body)) {
    throw new Error(
      `Body does not match ${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body, null, 2)}`,
    );
  }
}
