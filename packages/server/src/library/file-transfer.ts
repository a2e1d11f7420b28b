/**
 * Bringing a file into a library folder for an import (engine.md §9.2 copy modes), so that a process killed at any
 * moment leaves the source as it was and never a half-written file under the final name:
 *
 * 1. `stage`: the file is hard-linked (HARDLINK, MOVE) or copied and flushed to disk (COPY, or when the link cannot
 *    be made: another file system, a file system without links) under a temporary name in the destination folder;
 * 2. `place`: that name is renamed to the final one (atomic in one folder), and the folder is synced;
 * 3. the caller records the new file in the database, then `finish` removes the source of a MOVE.
 *
 * A MOVE is a link (or copy) followed by removing the source once the book row exists: until then the source is
 * untouched, so a failure or a kill before the end leaves it where it was (the retry of the task finds its own
 * temporary file by name and starts again).
 */
import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { CopyMode } from '@quire/api/constants';

/** The file-system calls a transfer makes; a test may replace one (an EXDEV link) without touching the others. */
export interface TransferFs {
  link(existing: string, created: string): Promise<void>;
  copyFile(source: string, target: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  lstat(path: string): Promise<unknown>;
  sync(path: string): Promise<void>;
}

export const nodeTransferFs: TransferFs = {
  link: fsp.link,
  copyFile: fsp.copyFile,
  rename: fsp.rename,
  unlink: fsp.unlink,
  lstat: fsp.lstat,
  sync: async (path) => {
    const handle = await fsp.open(path, 'r');
    await handle.sync().finally(() => handle.close());
  },
};

/** The destination name is taken (ERR_1021 for an import). */
export class DestinationExistsError extends Error {
  override name = 'DestinationExistsError';
}

const code = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

/**
 * Makes a rename in `folder` durable (a power cut after it keeps the new name). Not every platform can open a
 * folder to sync it; the rename itself is atomic anyway.
 */
export async function syncFolder(folder: string, fs: Pick<TransferFs, 'sync'> = nodeTransferFs): Promise<void> {
  await fs.sync(folder).catch(() => undefined);
}

/**
 * Step 1: `source` under the name `temp` (a leftover of an earlier, interrupted try is replaced). HARDLINK and MOVE
 * link when they can; any failure to link (EXDEV across file systems, EPERM, ENOTSUP…) copies instead, as the
 * reference does. A copy is flushed to disk before it can be placed. Returns how the file got there.
 */
export async function stage(
  source: string,
  temp: string,
  mode: CopyMode,
  fs: TransferFs = nodeTransferFs,
): Promise<'linked' | 'copied'> {
  await fs.unlink(temp).catch((e) => {
    if (code(e) !== 'ENOENT') throw e;
  });
  if (mode !== 'COPY') {
    try {
      await fs.link(source, temp);
      return 'linked';
    } catch (e) {
      if (code(e) === 'ENOENT') throw e;
    }
  }
  try {
    await fs.copyFile(source, temp, constants.COPYFILE_EXCL);
    await fs.sync(temp);
  } catch (e) {
    await fs.unlink(temp).catch(() => undefined);
    throw e;
  }
  return 'copied';
}

/**
 * Step 2: the staged file takes its final name. Unless `replace` (an upgrade whose new file has the old one's
 * name), an existing file there is refused with {@link DestinationExistsError} and the staged file removed.
 */
export async function place(
  temp: string,
  target: string,
  folder: string,
  replace: boolean,
  fs: TransferFs = nodeTransferFs,
): Promise<void> {
  if (!replace && (await exists(target, fs))) {
    await fs.unlink(temp).catch(() => undefined);
    throw new DestinationExistsError(`Destination file already exists: ${target}`);
  }
  await fs.rename(temp, target);
  await syncFolder(folder, fs);
}

/** Is there anything (a dangling link included) at `path`? */
export async function exists(path: string, fs: Pick<TransferFs, 'lstat'> = nodeTransferFs): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (e) {
    if (code(e) === 'ENOENT') return false;
    throw e;
  }
}
