import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, claim, startChild, type Child } from '../support/child-server.js';
import { openDataDirDatabase } from '../support/postgres.js';
import { writeCbz } from '../support/library-builder.js';

/*
 * Issue 15: `kill -9` while a book is moved into a library. The source is a 256 MiB file on another file system
 * (/dev/shm, a tmpfs, when it is another device than the temporary folder: a move there is a copy, which takes a
 * while), and a real server process is killed with SIGKILL as soon as the copy appears in the series folder. The
 * source must be whole where it was, no file but a hidden temporary one in the series folder, the database sound
 * and pointing at no missing file; a second process on the same data folder runs the import again, to the end.
 */

const SIZE = 256 * 1024 * 1024;
let dataDir: string;
let root: string;
let elsewhere: string | null = null;
/**
 * A move across file systems is a copy, then the source removed: the copy is what a kill can interrupt. Where no
 * second file system is at hand (/dev/shm on the temporary folder's device), a move is a rename with nothing to
 * interrupt, so the test interrupts a COPY instead, the same copy under the same temporary name.
 */
let crossDevice = false;
const mode = () => (crossDevice ? 'MOVE' : 'COPY');
let original: string;
const children: Child[] = [];
const series = () => join(root, 'Series');
const source = () => join(elsewhere!, 'Big.cbz');
const target = () => join(series(), 'Big.cbz');

const sha = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });

const until = async (what: string, child: Child, check: () => Promise<boolean>, ms = 180_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Every live book's file exists, and the database is sound. */
async function checkDatabase() {
  const db = await openDataDirDatabase(dataDir, { readonly: true });
  try {
    db.expectSound((integrity, foreignKeys) => {
      expect(integrity).toBe('ok');
      expect(foreignKeys).toEqual([]);
    });
    const urls = (await db.rows<{ url: string }>('SELECT url FROM book WHERE deleted_date IS NULL')).map((r) => r.url);
    for (const url of urls) expect(existsSync(fileURLToPath(url)), url).toBe(true);
    return { urls, importTasks: (await db.tasksOf('ImportBook')).length };
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  const [shm, tmp] = await Promise.all([stat('/dev/shm').catch(() => null), stat(tmpdir())]);
  crossDevice = shm !== null && shm.dev !== tmp.dev;
  elsewhere = await mkdtemp(crossDevice ? '/dev/shm/quire-kill-import-' : join(tmpdir(), 'quire-kill-import-source-'));
  dataDir = await mkdtemp(join(tmpdir(), 'quire-kill-import-data-'));
  root = await mkdtemp(join(tmpdir(), 'quire-kill-import-library-'));
  mkdirSync(series(), { recursive: true });
  await writeCbz(join(series(), 'Small.cbz'));
  // Not a readable archive (its analysis fails), which an import does not check: only its bytes matter here.
  const out = createWriteStream(source());
  for (let written = 0; written < SIZE; written += 1 << 20) {
    if (!out.write(randomBytes(1 << 20))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  original = await sha(source());
}, 120_000);

afterAll(async () => {
  for (const c of children) await c.kill();
  for (const d of [dataDir, root, elsewhere]) if (d) await rm(d, { recursive: true, force: true });
});

describe('kill -9 during the move of a book into a library', () => {
  it('leaves the source whole and the database pointing at existing files; the next process finishes the import', async () => {
    const first = await startChild(dataDir);
    children.push(first);
    await claim(first);
    await api(first, '/api/v1/libraries', { method: 'POST', body: JSON.stringify({ name: 'Comics', root }) });
    type Series = { id: string; name: string };
    let seriesId: string | undefined;
    await until('the scan', first, async () => {
      const all = await api<{ content: Series[] }>(first, '/api/v1/series');
      seriesId = all.content.find((s) => s.name === 'Series')?.id;
      return seriesId !== undefined;
    });

    await api(first, '/api/v1/books/import', {
      method: 'POST',
      body: JSON.stringify({ books: [{ sourceFile: source(), seriesId }], copyMode: mode() }),
    });
    const deadline = Date.now() + 60_000;
    let temp: string | undefined;
    while (!temp && Date.now() < deadline) {
      temp = (await readdir(series())).find((f) => f.startsWith('.quire_import_'));
      if (!temp) await new Promise((r) => setTimeout(r, 1));
    }
    await first.kill();
    expect(temp, 'the copy started').toBeDefined();

    // The source is whole; the series folder has no half file under a book's name; the database knows only files
    // that exist, and the import is still queued.
    expect(await sha(source())).toBe(original);
    expect((await readdir(series())).filter((f) => !f.startsWith('.'))).toEqual(['Small.cbz']);
    const before = await checkDatabase();
    expect(before.urls).toHaveLength(1);
    expect(before.importTasks).toBe(1);

    // Second life: the interrupted import runs again, to the end.
    const second = await startChild(dataDir);
    children.push(second);
    type Book = { id: string; name: string; url: string };
    await until('the import', second, async () => {
      const books = await api<{ content: Book[] }>(second, `/api/v1/series/${seriesId}/books`);
      return books.content.some((b) => b.name === 'Big');
    });
    expect(await sha(target())).toBe(original);
    expect(existsSync(source())).toBe(mode() === 'COPY');
    expect((await readdir(series())).sort()).toEqual(['Big.cbz', 'Small.cbz']);
    const after = await checkDatabase();
    expect(after.urls).toHaveLength(2);
    const history = await api<{ content: { type: string; properties: Record<string, string> }[] }>(
      second,
      '/api/v1/history',
    );
    expect(history.content).toContainEqual(
      expect.objectContaining({
        type: 'BookImported',
        properties: { name: target(), source: source(), upgrade: 'No' },
      }),
    );
    await second.stop();
  }, 420_000);
});
