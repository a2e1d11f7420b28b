import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The whole import rule of packages/server/src in one table, mirroring docs/architecture.md ("Server: dependencies
 * point inward"). Every import of every file is checked: static, type-only, re-exports, dynamic `import()`,
 * `typeof import()`, `require()` and `createRequire(…).resolve()`.
 */
const src = resolve(import.meta.dirname, '../src');

/** Which of our folders each folder may import (besides itself). */
const folders: Record<string, readonly string[]> = {
  domain: [],
  media: ['domain'],
  // Services reach the database through the ports of domain/ports.ts, never db/.
  metadata: ['domain', 'events', 'media', 'tasks'],
  db: ['domain'],
  events: ['domain'],
  settings: ['domain'],
  accounts: ['domain', 'events'],
  library: ['domain', 'events', 'media', 'metadata', 'tasks'],
  tasks: ['domain', 'db', 'events', 'library', 'metadata'], // db: the SQLite queue only (below)
  collections: ['domain', 'events', 'media'],
  reading: ['domain', 'events'],
  fonts: ['domain'],
  // Announcements (fetched over the network in the background) and releases (the CHANGELOG.md).
  updates: ['domain'],
  http: [
    'domain',
    'db',
    'events',
    'accounts',
    'settings',
    'library',
    'tasks',
    'media',
    'metadata',
    'collections',
    'reading',
    'fonts',
    'updates',
  ],
};

/** Modules of one folder (a key ending in `/`: every module under it) that only some importers may use. */
const privateModules: Record<string, readonly string[]> = {
  // Only the composition root, the worker pool and the status broadcaster see the whole queue; services and
  // routes queue follow-up work through tasks/emitter.ts.
  'tasks/queue.ts': ['app.ts', 'tasks'],
  // The Kysely implementation of the ports: only the composition root builds it (services get the ports).
  'db/unit-of-work.ts': ['app.ts'],
  'db/repositories/': ['db', 'tasks/queue.ts'], // the SQLite task queue keeps its own table
  'db/database.ts': ['db', 'app.ts', 'tasks/queue.ts', 'http/deps.ts'], // deps.db: the tests' look at the rows
  // The read side (lists, search, referential values, DTO-shaped views) is queried by the routes.
  'db/queries/': ['db', 'app.ts', 'http'],
  'db/search/': ['db'],
  'db/migrations/': ['db'],
  'db/schema.ts': ['db'],
  // PostgreSQL mode's shared tables and graphile-worker's jobs (issue 20): the composition root and the queue.
  'db/cluster.ts': ['db', 'app.ts', 'tasks/pg-queue.ts', 'tasks/pg-worker-pool.ts'],
};
/**
 * Modules of one folder that some places of another folder may use besides the folder table: the worker pool, the
 * one way the server starts a thread, also runs the search index's large backlogs (db/search/sqlite-fts-worker.ts).
 */
const sharedModules: Record<string, readonly string[]> = {
  'media/workers.ts': ['db/search/sqlite-fts-indexer.ts'],
  'media/worker-thread.ts': ['db/search/sqlite-fts-worker.ts'],
};

const privateOf = (target: string) =>
  privateModules[target] ??
  Object.entries(privateModules).find(([key]) => key.endsWith('/') && target.startsWith(key))?.[1];

/** The composition root's modules, and who else may import each. */
const rootModules: Record<string, readonly string[]> = {
  'main.ts': [],
  'heap.ts': ['main.ts', 'media/workers.ts'], // V8 flags again when a worker starts
  'serve.ts': ['main.ts'],
  'app.ts': ['serve.ts'],
  'config.ts': ['serve.ts', 'app.ts', 'logging.ts', 'accounts', 'http'], // the one typed config object
  'build-info.ts': ['config.ts'],
  'logging.ts': ['app.ts', 'http/routes/actuator.ts'], // /actuator/logfile serves the log file
};

/** Every third-party package, and where it may be used. A package missing here is a violation. */
const packages: Record<string, readonly string[]> = {
  sharp: ['media'],
  yauzl: ['media'],
  'node-unrar-js': ['media'],
  '7z-wasm': ['media'],
  'zxing-wasm': ['media'],
  '@hyzyla/pdfium': ['media'],
  'pdf-lib': ['media'],
  'tar-stream': ['media'],
  'image-size': ['media'],
  'hash-wasm': ['media'],
  '@node-rs/xxhash': ['media'],
  '@node-rs/crc32': ['media'],
  '@zip.js/zip.js': ['media'],
  htmlparser2: ['media'], // markup of book files (media/markup.ts)
  entities: ['media'],
  'fast-xml-parser': ['http'], // OPDS 1.2 feeds (http/routes/opds/atom.ts)
  koffi: ['native-memory.ts'], // malloc_trim after tasks
  tsx: ['media/workers.ts'], // starts .ts workers when running from sources
  piscina: ['media/workers.ts', 'media/worker-thread.ts'], // every worker thread runs in its pools
  'better-sqlite3': ['db'],
  kysely: ['db'],
  pg: ['db'], // PostgreSQL: Kysely's pool (db/database.ts) and the shared queue's and events' (db/cluster.ts)
  'graphile-worker': ['tasks/pg-queue.ts', 'tasks/pg-worker-pool.ts'], // the job queue of PostgreSQL mode
  fastify: ['http', 'app.ts'],
  'fastify-plugin': ['http'],
  '@fastify/ajv-compiler': ['http'],
  '@fastify/cookie': ['http', 'app.ts'],
  '@fastify/fast-json-stringify-compiler': ['http'],
  '@fastify/multipart': ['http'],
  '@fastify/static': ['http'],
  '@fastify/swagger': ['http'],
  '@fastify/type-provider-typebox': ['http'],
  typebox: ['http'],
  '@node-rs/argon2': ['accounts'],
  'openid-client': ['accounts'],
  '@fontsource/opendyslexic': ['fonts'],
  pino: ['logging.ts'],
  'rotating-file-stream': ['logging.ts'],
  // The contract: its values (schemas, DTO builders) belong to http, events and db; other folders use its types.
  '@quire/api': ['http', 'events', 'db', 'app.ts'],
  '@quire/api/operations': ['http'],
  // Error codes and library defaults, without TypeBox: the only part of the contract domain/ may import.
  '@quire/api/constants': ['*'],
};
/** Type-only imports of these may come from anywhere but domain/. */
const typesAnywhere = new Set(['@quire/api']);
/** domain/ has no I/O: of Node's modules it may use only these. */
const domainBuiltins = new Set(['node:crypto']);

const rootFiles = new Set(Object.keys(rootModules));

/** A file's place: its root module name, or its folder. */
const placeOf = (rel: string) => (rootFiles.has(rel) ? rel : rel.split('/')[0]!);
/** `where` lists places: a folder, a root module, or one file (`media/workers.ts`). */
const allows = (where: readonly string[], rel: string) =>
  where.includes('*') || where.includes(rel) || where.includes(placeOf(rel));

interface Import {
  spec: string;
  typeOnly: boolean;
  /** `import()`: loaded when that code runs, not with the importing module. */
  dynamic?: boolean;
}

function importsOf(fileName: string, text: string): Import[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      found.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push({ spec: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal))
        found.push({ spec: arg.literal.text, typeOnly: true });
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const callee = node.expression;
      const loads =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        // createRequire(import.meta.url).resolve('pkg/file') and require.resolve('pkg')
        (ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' && isRequire(callee.expression));
      if (loads) {
        const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
        if (first && ts.isStringLiteralLike(first)) found.push({ spec: first.text, typeOnly: false, dynamic });
        else found.push({ spec: '<computed>', typeOnly: false });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const isRequire = (e: ts.Expression): boolean =>
  (ts.isIdentifier(e) && e.text === 'require') ||
  (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'createRequire');

const packageOf = (spec: string) => {
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  // @quire/api's entries are told apart: each has its own rule.
  if (name === '@quire/api' && parts.length > 2) return `${name}/${parts[2]}`;
  return name;
};

const builtins = new Set(builtinModules);

/** The module (its path under src/) that a relative `spec` imported from `rel` names. */
const moduleOf = (rel: string, spec: string) =>
  relative(src, resolve(dirname(join(src, rel)), spec)).replace(/\.js$/, '.ts');

/** The rule's violations in one file (`rel`: its path under src/). */
function violationsOf(rel: string, text: string): string[] {
  const out: string[] = [];
  const from = placeOf(rel);
  const isRoot = rootFiles.has(rel);
  for (const { spec, typeOnly } of importsOf(rel, text)) {
    if (spec === '<computed>') {
      out.push(`${rel} loads a module whose name is computed`);
    } else if (spec.startsWith('.')) {
      const target = moduleOf(rel, spec);
      if (target.startsWith('..')) {
        out.push(`${rel} imports ${spec}, outside src/`);
        continue;
      }
      const targetPlace = placeOf(target);
      if (rootFiles.has(target)) {
        if (!allows(rootModules[target]!, rel)) out.push(`${rel} imports the root module ${target}`);
      } else if (
        !isRoot &&
        targetPlace !== from &&
        !(folders[from] ?? []).includes(targetPlace) &&
        !sharedModules[target]?.includes(rel)
      ) {
        out.push(`${rel} imports ${spec} (${from} → ${targetPlace})`);
      } else if (privateOf(target) && !allows(privateOf(target)!, rel)) {
        out.push(`${rel} imports ${target}, which only ${privateOf(target)!.join(', ')} may use`);
      }
    } else if (spec.startsWith('node:') || builtins.has(spec)) {
      if (from === 'domain' && !domainBuiltins.has(spec)) out.push(`${rel} imports ${spec}: domain/ has no I/O`);
    } else {
      const pkg = packageOf(spec);
      const where = packages[pkg];
      if (!where) out.push(`${rel} imports ${pkg}, which the boundary table does not list`);
      else if (!allows(where, rel) && !(typeOnly && typesAnywhere.has(pkg) && from !== 'domain'))
        out.push(`${rel} imports ${pkg}, allowed only in ${where.join(', ')}`);
    }
  }
  return [...new Set(out)];
}

function* sourceFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (/\.tsx?$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name)) yield p;
  }
}

describe('server import boundaries', () => {
  it('keeps every import of every source file inside the table', () => {
    const violations = [...sourceFiles(src)].flatMap((file) =>
      violationsOf(relative(src, file), readFileSync(file, 'utf8')),
    );
    expect(violations).toEqual([]);
  });

  it('reports planted violations of each kind', () => {
    const planted: [string, string][] = [
      ['domain/probe.ts', "import { createApp } from '../app.js';"],
      ['domain/probe.ts', "import { readFile } from 'node:fs/promises';"],
      ['domain/probe.ts', "import type { BookDto } from '@quire/api';"],
      ['library/probe.ts', "const z = await import('@zip.js/zip.js');"],
      ['library/probe.ts', "const s = require('sharp');"],
      ['library/probe.ts', "import { x } from '../http/routes/books.js';"],
      ['http/probe.ts', "import { sql } from 'kysely';"],
      ['http/probe.ts', "import type { TaskQueue } from '../tasks/queue.js';"],
      ['media/probe.ts', "import { dataDir } from '../config.js';"],
      ['media/probe.ts', "export { thing } from '../db/database.js';"],
      ['media/probe.ts', "type Y = typeof import('../library/thumbnails.js');"],
      ['media/probe.ts', "const p = createRequire(import.meta.url).resolve('left-pad/package.json');"],
      ['media/probe.ts', 'const m = await import(name);'],
      ['library/probe.ts', "import type { KyselyBookRepository } from '../db/repositories/books.js';"],
      ['http/probe.ts', "import { KyselyBookRepository } from '../db/repositories/books.js';"],
      ['http/probe.ts', "import { createUnitOfWork } from '../db/unit-of-work.js';"],
      ['tasks/probe.ts', "import type { Db } from '../db/database.js';"],
    ];
    for (const [file, line] of planted) expect(violationsOf(file, line), `${file}: ${line}`).toHaveLength(1);
    // …and what the table allows passes.
    expect(violationsOf('library/probe.ts', "import type { QuireEvent } from '@quire/api';")).toEqual([]);
    expect(violationsOf('domain/probe.ts', "import { ERROR_CODES } from '@quire/api/constants';")).toEqual([]);
    expect(violationsOf('media/workers.ts', "import { limitYoungGeneration } from '../heap.js';")).toEqual([]);
    expect(violationsOf('library/probe.ts', "import type { BookRepository } from '../domain/ports.js';")).toEqual([]);
    expect(violationsOf('http/probe.ts', "import type { BookView } from '../db/queries/books.js';")).toEqual([]);
    expect(violationsOf('app.ts', "import { createUnitOfWork } from './db/unit-of-work.js';")).toEqual([]);
  });
});

/**
 * The packages a module loads with it: its static imports, followed through our own modules (type-only imports and
 * `import()` are not followed).
 */
function packagesLoadedWith(rel: string, seen = new Set<string>(), found = new Set<string>()): Set<string> {
  if (seen.has(rel)) return found;
  seen.add(rel);
  for (const { spec, typeOnly, dynamic } of importsOf(rel, readFileSync(join(src, rel), 'utf8'))) {
    if (typeOnly || dynamic) continue;
    if (spec.startsWith('.')) packagesLoadedWith(moduleOf(rel, spec), seen, found);
    else if (!spec.startsWith('node:') && !builtins.has(spec)) found.add(packageOf(spec));
  }
  return found;
}

describe('what the server loads at start', () => {
  // Memory a server keeps from its start to its end (issue 18): what only some servers or some books need is loaded
  // with an `import()` where it is first used.
  it('leaves out PostgreSQL mode, OAuth2 and the rare formats and tools until they are used', () => {
    const loaded = packagesLoadedWith('serve.ts');
    expect(loaded).toContain('fastify'); // it does follow the imports
    for (const later of ['pg', 'graphile-worker', 'openid-client', 'node-unrar-js', 'tar-stream', 'pdf-lib', 'koffi'])
      expect(loaded, later).not.toContain(later);
  });
});
