import { createRequire } from 'node:module';
import * as readium from '@readium/shared';

/**
 * The parsers real OPDS 2 apps read Quire with: Readium's r2-opds-js (Thorium Reader's) for feeds and the
 * authentication document, @readium/shared for WebPub manifests. Each document is parsed, written back by the same
 * library, and compared with what the server sent: a member the parser drops or reads as something else shows up
 * as a difference. Only the differences in *form* that these libraries make on every document are evened out.
 */

/**
 * @readium/shared's declarations import their modules without extensions, which the server's NodeNext resolution
 * cannot follow (the web client's bundler resolution can): the little used here is declared instead.
 */
interface ReadiumManifest {
  serialize(): unknown;
  readingOrder: { items: unknown[] };
}
const { Manifest } = readium as unknown as {
  Manifest: { deserialize(json: unknown): ReadiumManifest | undefined };
};

const require = createRequire(import.meta.url);
// CommonJS packages without an exports map: their compiled modules are addressed by path.
const { OPDSFeed } = require('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2') as {
  OPDSFeed: new () => unknown;
};
const { OPDSAuthenticationDoc } = require('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2-authentication-doc') as {
  OPDSAuthenticationDoc: new () => unknown;
};
const { TaJsonDeserialize, TaJsonSerialize } = require('r2-lcp-js/dist/es8-es2017/src/serializable') as {
  TaJsonDeserialize<T>(json: unknown, type: new () => T): T;
  TaJsonSerialize(value: unknown): unknown;
};

/** Dates are written back in another format (r2: without milliseconds); compared as instants to the second. */
const DATE_KEYS = new Set(['modified', 'published']);

/**
 * The meaning of a JSON value as these libraries see it: a one-element array and its element are the same
 * (r2 writes single values bare), a localized string without language (`{"undefined": "x"}` from @readium/shared)
 * is its text, a contributor with only a name is the name, `rel` arrays are their values, empty arrays and objects
 * carry nothing.
 */
export function meaning(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => meaning(v)).filter((v) => v !== undefined);
    if (items.length === 0) return undefined;
    return items.length === 1 ? items[0] : items;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1 && entries[0]![0] === 'undefined') return meaning(entries[0]![1]);
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      const m = meaning(v, k);
      if (m !== undefined) out[k] = m;
    }
    const keys = Object.keys(out);
    if (keys.length === 0) return undefined;
    if (keys.length === 1 && keys[0] === 'name' && key !== 'metadata') return out.name;
    return out;
  }
  if (typeof value === 'string' && DATE_KEYS.has(key)) return Math.floor(Date.parse(value) / 1000);
  return value;
}

/** A feed as Thorium reads it, written back. */
export function readFeed(json: unknown): unknown {
  return TaJsonSerialize(TaJsonDeserialize(json, OPDSFeed));
}

export function readAuthenticationDocument(json: unknown): unknown {
  return TaJsonSerialize(TaJsonDeserialize(json, OPDSAuthenticationDoc));
}

/**
 * A manifest as Readium's TypeScript toolkit reads it, written back. Left out of the comparison: `context`, Komga's
 * own key (api.md §4.7: not `@context`), which no Readium parser knows; and `images`, `landmarks` and `pageList`,
 * which @readium/shared 2.1.2 does not read at all (it takes extra collections only from `sub`). Everything it does
 * read (metadata, links, reading order, resources, table of contents) must come back the same.
 */
export function readManifest(json: Record<string, unknown>): {
  parsed: ReadiumManifest;
  written: unknown;
  sent: unknown;
} {
  const parsed = Manifest.deserialize(json);
  if (!parsed) throw new Error('@readium/shared refused the manifest');
  const { context: _context, images: _images, landmarks: _landmarks, pageList: _pageList, ...sent } = json;
  return { parsed, written: parsed.serialize(), sent };
}
