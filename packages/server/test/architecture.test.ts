import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Which folder of packages/server/src may import which (docs/architecture.md, "Dependencies point inward").
 * Third-party packages that only one folder may use are listed too.
 */
const src = resolve(import.meta.dirname, '../src');
const mayImport: Record<string, string[]> = {
  domain: [],
  media: ['domain'],
  metadata: ['domain', 'db', 'events', 'media', 'tasks'],
  db: ['domain'],
  events: ['domain'],
  settings: ['domain', 'db'],
  accounts: ['domain', 'db', 'events'],
  library: ['domain', 'db', 'events', 'media', 'metadata', 'tasks'],
  tasks: ['domain', 'db', 'events', 'library', 'metadata'],
  collections: ['domain', 'db', 'events', 'media'],
  reading: ['domain', 'db', 'events'],
  fonts: ['domain'],
  http: [
    'domain',
    'db',
    'events',
    'accounts',
    'library',
    'tasks',
    'settings',
    'media',
    'collections',
    'reading',
    'metadata',
    'fonts',
  ],
};
const onlyIn: Record<string, string[]> = {
  sharp: ['media'],
  yauzl: ['media'],
  'node-unrar-js': ['media'],
  '7z-wasm': ['media'],
  'zxing-wasm': ['media'],
  'better-sqlite3': ['db'],
  fastify: ['http'],
};
// The composition root and its helpers may import everything.
const rootFiles = new Set(['main.ts', 'heap.ts', 'serve.ts', 'app.ts', 'config.ts', 'build-info.ts', 'logging.ts']);

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) yield p;
  }
}

const folderOf = (file: string) => relative(src, file).split('/')[0]!;

describe('server folder boundaries', () => {
  const violations: string[] = [];
  for (const file of files(src)) {
    const rel = relative(src, file);
    if (rootFiles.has(rel) || rel.startsWith('types/')) continue;
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) {
        const target = folderOf(resolve(dirname(file), spec));
        if (
          target !== from &&
          !(mayImport[from] ?? []).includes(target) &&
          !rootFiles.has(target.replace(/\.js$/, '.ts'))
        ) {
          violations.push(`${rel} imports ${spec} (${from} → ${target})`);
        }
      } else {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        const allowed = onlyIn[pkg];
        if (allowed && !allowed.includes(from))
          violations.push(`${rel} imports ${pkg}, allowed only in ${allowed.join(', ')}`);
      }
    }
  }
  it('keeps every import inside the allowed direction', () => {
    expect(violations).toEqual([]);
  });
});
