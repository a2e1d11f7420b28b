import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryFiles } from '../../src/library/library-files.js';

/*
 * The library root's real path is reused for a moment (issue 18: it was resolved again for every file opened). A
 * root relinked meanwhile must neither make its files unreadable nor let a file out of it be opened.
 */
describe('LibraryFiles', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-library-files-'));
    for (const folder of ['a', 'b', 'outside']) {
      await mkdir(join(dir, folder));
      await writeFile(join(dir, folder, 'book.cbz'), folder);
    }
    await writeFile(join(dir, 'b', 'only-in-b.cbz'), 'b');
    await symlink(join(dir, 'a'), join(dir, 'root'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const files = () =>
    new LibraryFiles({
      libraries: { find: async (id) => (id === 'lib' ? ({ root: join(dir, 'root') } as never) : undefined) },
    });
  const book = (name: string) => ({ libraryId: 'lib', url: pathToFileURL(join(dir, 'root', name)).href });

  it('follows a root relinked just after a file was opened', async () => {
    const f = files();
    expect(await f.pathOf(book('book.cbz'))).toBe(join(dir, 'a', 'book.cbz'));
    await unlink(join(dir, 'root'));
    await symlink(join(dir, 'b'), join(dir, 'root'));
    expect(await f.pathOf(book('only-in-b.cbz'))).toBe(join(dir, 'b', 'only-in-b.cbz'));
    expect(await f.pathOf(book('book.cbz'))).toBe(join(dir, 'b', 'book.cbz'));
  });

  it('still refuses a file that links out of the root', async () => {
    const f = files();
    expect(await f.pathOf(book('book.cbz'))).toBe(join(dir, 'a', 'book.cbz'));
    await unlink(join(dir, 'a', 'book.cbz'));
    await symlink(join(dir, 'outside', 'book.cbz'), join(dir, 'a', 'book.cbz'));
    expect(await f.pathOf(book('book.cbz'))).toBeNull();
    expect(await f.pathOf({ libraryId: 'gone', url: book('book.cbz').url })).toBeNull();
  });
});
