import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { makeImage, zipBuffer } from '../../packages/server/test/support/library-builder.js';
import { connectBrowser, newPage, signIn } from '../support/browser.js';
import { cleanUpAfterSpec } from '../support/lifecycle.js';
import { startServer, type RunningServer } from '../support/server.js';
import { claimServer } from '../support/library.js';

const EMAIL = 'editor@example.org';
const PASSWORD = 'editor-secret';
const LIBRARY = 'E2E Metadata';
const COLLECTION = 'E2E Shelf';
const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** Series folder → its books: Alpha has three (bulk edit), Beta and Gamma one each (the collection). */
const SERIES: Record<string, string[]> = {
  Alpha: ['Alpha 001.cbz', 'Alpha 002.cbz', 'Alpha 003.cbz'],
  Beta: ['Beta 001.cbz'],
  Gamma: ['Gamma 001.cbz'],
};

async function buildLibrary(root: string) {
  let seed = 1;
  for (const [series, files] of Object.entries(SERIES)) {
    await mkdir(join(root, series), { recursive: true });
    for (const file of files) {
      const pages = [];
      for (let i = 0; i < 2; i++) {
        pages.push({ name: `${String(i + 1).padStart(3, '0')}.jpg`, data: await makeImage('jpeg', seed++, 90, 130) });
      }
      await writeFile(join(root, series, file), zipBuffer(pages));
    }
  }
}

interface Named {
  id: string;
  name: string;
}
interface BookJson extends Named {
  media: { status: string };
  metadata: {
    isbn: string;
    isbnLock: boolean;
    authors: { name: string; role: string }[];
    authorsLock: boolean;
    tags: string[];
    tagsLock: boolean;
  };
}
interface CollectionJson extends Named {
  ordered: boolean;
  seriesIds: string[];
}

describe('metadata: edit a book, bulk-edit tags, create and reorder a collection', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let libraryRoot: string;
  let libraryId: string;

  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, { headers: { Authorization: basic } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const books = async () =>
    (await get<{ content: BookJson[] }>(`/api/v1/books?library_id=${libraryId}&unpaged=true&sort=name,asc`)).content;
  const series = async () =>
    (await get<{ content: Named[] }>(`/api/v1/series?library_id=${libraryId}&unpaged=true`)).content;
  const idOf = (list: Named[], name: string) => list.find((x) => x.name === name)!.id;

  beforeAll(async () => {
    server = await startServer();
    await claimServer(server, EMAIL, PASSWORD);
    libraryRoot = await realpath(await mkdtemp(join(tmpdir(), 'quire-e2e-metadata-')));
    await buildLibrary(libraryRoot);
    const created = await fetch(`${server.url}/api/v1/libraries`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: LIBRARY, root: libraryRoot }),
    });
    expect(created.status).toBe(200);
    libraryId = ((await created.json()) as Named).id;
    // Scan and analysis (expect.poll only runs inside tests).
    const analysed = 'Alpha 001:READY,Alpha 002:READY,Alpha 003:READY,Beta 001:READY,Gamma 001:READY';
    const deadline = Date.now() + 30_000;
    while ((await books()).map((b) => `${b.name}:${b.media.status}`).join(',') !== analysed) {
      if (Date.now() > deadline) throw new Error(`library not analysed in 30 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    browser = await connectBrowser();
    ({ page } = await newPage(browser));
  });
  cleanUpAfterSpec('metadata', () => ({ browser, page, server, dirs: [libraryRoot] }));

  it('logs in', async () => {
    await signIn(page, server.url, EMAIL, PASSWORD);
  });

  it("edits a book's authors and ISBN; a bad ISBN shows the error and nothing is saved", async () => {
    const book = (await books()).find((b) => b.name === 'Alpha 001')!;
    await page.goto(`${server.url}/book/${book.id}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit book' });
    const isbn = dialog.getByRole('textbox', { name: 'ISBN' });
    await isbn.fill('9780306406158');
    await dialog.getByText('Must be a valid ISBN 13').waitFor();
    // Typing locked the field.
    expect(await dialog.getByRole('button', { name: 'Lock ISBN' }).getAttribute('aria-pressed')).toBe('true');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('Must be a valid ISBN 13').waitFor();
    expect((await books()).find((b) => b.id === book.id)!.metadata.isbn).toBe('');

    await isbn.fill('978-0-306-40615-7');
    await expect.poll(() => dialog.getByText('Must be a valid ISBN 13').count()).toBe(0);
    await dialog.getByRole('tab', { name: 'Authors' }).click();
    const writers = dialog.getByRole('combobox', { name: 'Writers' });
    await writers.fill('Ada Writer');
    await writers.press('Enter');
    await dialog.getByRole('button', { name: 'Ada Writer' }).waitFor();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByText('Alpha 001 updated', { exact: true }).count()).toBe(1);

    const saved = (await books()).find((b) => b.id === book.id)!.metadata;
    expect(saved).toMatchObject({
      isbn: '9780306406157',
      isbnLock: true,
      authors: [{ name: 'Ada Writer', role: 'writer' }],
      authorsLock: true,
      tagsLock: false,
    });
    // The book page shows the new values live.
    await page.getByText('Ada Writer').first().waitFor();
  });

  it('bulk-edits the tags of three books, after the notice that they are replaced', async () => {
    const alpha = idOf(await series(), 'Alpha');
    await page.goto(`${server.url}/series/${alpha}`);
    for (const title of ['Alpha 001', 'Alpha 002', 'Alpha 003']) {
      // Book cards read "1 - Alpha 001".
      await page.getByRole('button', { name: new RegExp(`^Select .*${title}$`) }).click();
    }
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit 3 books' });
    await dialog.getByRole('tab', { name: 'Tags' }).click();
    await dialog
      .getByText('You are editing the tags of 3 books. This will replace the existing tags of each book.')
      .waitFor();
    const tags = dialog.getByRole('combobox', { name: 'Tags' });
    await tags.fill('e2e-tag');
    await tags.press('Enter');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByText('3 books updated', { exact: true }).count()).toBe(1);

    const alphaBooks = (await books()).filter((b) => b.name.startsWith('Alpha'));
    expect(alphaBooks.map((b) => b.metadata.tags)).toEqual([['e2e-tag'], ['e2e-tag'], ['e2e-tag']]);
    expect(alphaBooks.every((b) => b.metadata.tagsLock)).toBe(true);
    // Authors were not touched by the bulk edit.
    expect(alphaBooks[0]!.metadata.authors).toEqual([{ name: 'Ada Writer', role: 'writer' }]);
  });

  it('creates a collection from the series grid, turns on manual ordering and reorders it', async () => {
    const all = await series();
    const [beta, gamma] = [idOf(all, 'Beta'), idOf(all, 'Gamma')];
    await page.goto(`${server.url}/libraries/${libraryId}/series`);
    await page.getByRole('button', { name: 'Select Beta', exact: true }).click();
    await page.getByRole('button', { name: 'Select Gamma', exact: true }).click();
    await page
      .getByRole('toolbar', { name: 'Selection' })
      .getByRole('button', { name: 'Add to collection', exact: true })
      .click();
    const add = page.getByRole('dialog', { name: 'Add to collection' });
    await add.getByText('No matching collection').waitFor();
    await add.getByRole('textbox', { name: 'Search or create collection' }).fill(COLLECTION);
    await add.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => add.count()).toBe(0);
    await expect.poll(() => page.getByText(`Collection ${COLLECTION} created`, { exact: true }).count()).toBe(1);

    const [collection] = (await get<{ content: CollectionJson[] }>('/api/v1/collections?unpaged=true')).content;
    expect(collection).toMatchObject({ name: COLLECTION, ordered: false });
    expect([...collection!.seriesIds].sort()).toEqual([beta, gamma].sort());

    // Manual ordering is off for a new collection: turn it on in the edit dialog.
    await page.goto(`${server.url}/collections/${collection!.id}`);
    await page
      .getByRole('button', { name: `Actions for ${COLLECTION}` })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit collection' });
    await edit.getByRole('checkbox', { name: 'Manual ordering' }).check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => edit.count()).toBe(0);
    await expect
      .poll(async () => (await get<CollectionJson>(`/api/v1/collections/${collection!.id}`)).ordered)
      .toBe(true);

    const first = (await get<CollectionJson>(`/api/v1/collections/${collection!.id}`)).seriesIds[0];
    const lastName = first === beta ? 'Gamma' : 'Beta';
    await page.getByRole('button', { name: 'Edit elements' }).click();
    await page.getByRole('button', { name: `Move ${lastName} up`, exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await get<CollectionJson>(`/api/v1/collections/${collection!.id}`)).seriesIds)
      .toEqual(first === beta ? [gamma, beta] : [beta, gamma]);
  });
});
