import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web client compiles against @quire/api's types, never its TypeBox schemas (docs/architecture.md, "The
 * contract"). TypeBox marks every schema with a `~kind` property, which survives minification: no chunk of the
 * built client may contain it. Runs on the build `npm test` makes first.
 */
const assets = resolve(import.meta.dirname, '../packages/web/dist/assets');

describe('web bundle', () => {
  it('holds no TypeBox schema', () => {
    const chunks = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(0);
    const withSchemas = chunks.filter((f) => readFileSync(join(assets, f), 'utf8').includes('~kind'));
    expect(withSchemas).toEqual([]);
  });
});
