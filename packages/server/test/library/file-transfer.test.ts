import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DestinationExistsError,
  nodeTransferFs,
  place,
  stage,
  type TransferFs,
} from '../../src/library/file-transfer.js';

/*
 * The import's file transfer on real files. A link across file systems is made to fail with EXDEV by replacing
 * only `link` (the machine may have no second file system; test/http/book-import.test.ts covers a real one when
 * /dev/shm is another device).
 */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-transfer-'));
  await writeFile(join(dir, 'source.cbz'), 'the book');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const exdev: TransferFs = {
  ...nodeTransferFs,
  link: () => Promise.reject(Object.assign(new Error('cross-device link not permitted'), { code: 'EXDEV' })),
};

describe('stage and place', () => {
  it('links for HARDLINK and MOVE when it can', async () => {
    for (const mode of ['HARDLINK', 'MOVE'] as const) {
      const temp = join(dir, `.t-${mode}`);
      expect(await stage(join(dir, 'source.cbz'), temp, mode)).toBe('linked');
      expect((await stat(temp)).ino).toBe((await stat(join(dir, 'source.cbz'))).ino);
    }
  });

  it('copies for COPY, and for HARDLINK or MOVE when the link fails with EXDEV, leaving the source as it was', async () => {
    for (const [mode, fs] of [
      ['COPY', nodeTransferFs],
      ['HARDLINK', exdev],
      ['MOVE', exdev],
    ] as const) {
      const temp = join(dir, `.t-${mode}`);
      expect(await stage(join(dir, 'source.cbz'), temp, mode, fs)).toBe('copied');
      expect(await readFile(temp, 'utf8')).toBe('the book');
      expect((await stat(temp)).ino).not.toBe((await stat(join(dir, 'source.cbz'))).ino);
    }
    expect(await readFile(join(dir, 'source.cbz'), 'utf8')).toBe('the book');
  });

  it('replaces what an interrupted try left under the temporary name', async () => {
    const temp = join(dir, '.t');
    await writeFile(temp, 'half a bo');
    await stage(join(dir, 'source.cbz'), temp, 'COPY');
    expect(await readFile(temp, 'utf8')).toBe('the book');
  });

  it('fails on a missing source without leaving a temporary file', async () => {
    await expect(stage(join(dir, 'missing.cbz'), join(dir, '.t'), 'HARDLINK', exdev)).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await readdir(dir)).toEqual(['source.cbz']);
  });

  it('places under the final name, refusing a taken one unless replacing', async () => {
    const temp = join(dir, '.t');
    await stage(join(dir, 'source.cbz'), temp, 'COPY');
    await writeFile(join(dir, 'taken.cbz'), 'someone else');
    await expect(place(temp, join(dir, 'taken.cbz'), dir, false)).rejects.toBeInstanceOf(DestinationExistsError);
    expect(await readFile(join(dir, 'taken.cbz'), 'utf8')).toBe('someone else');
    expect((await readdir(dir)).sort()).toEqual(['source.cbz', 'taken.cbz']);

    await stage(join(dir, 'source.cbz'), temp, 'COPY');
    await place(temp, join(dir, 'taken.cbz'), dir, true);
    expect(await readFile(join(dir, 'taken.cbz'), 'utf8')).toBe('the book');
    expect((await readdir(dir)).sort()).toEqual(['source.cbz', 'taken.cbz']);
  });
});
