import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A kepubify run that takes longer than this is given up (a 503 for the device, which retries later). */
const KEPUBIFY_TIMEOUT_MS = 120_000;

export class KepubConversionFailed extends Error {}

/**
 * Converts an EPUB to a KEPUB (koboSpans, which Kobo devices need for their reading statistics and positions) with
 * the administrator's kepubify (`kepubifyPath` setting), into a folder of its own that `cleanup` removes. The
 * program runs with its arguments as an array: no shell reads the book's path.
 */
export async function kepubify(
  program: string,
  epubPath: string,
): Promise<{ path: string; size: number; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-kepub-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(program, ['--output', dir, epubPath], { timeout: KEPUBIFY_TIMEOUT_MS }, (err, _stdout, stderr) =>
        err ? reject(new KepubConversionFailed(`kepubify failed: ${String(stderr || err.message).trim()}`)) : resolve(),
      );
    });
    const name = (await readdir(dir)).find((f) => f.endsWith('.kepub.epub'));
    if (!name) throw new KepubConversionFailed('kepubify wrote no .kepub.epub file');
    const path = join(dir, name);
    return { path, size: (await stat(path)).size, cleanup };
  } catch (err) {
    await cleanup();
    throw err instanceof KepubConversionFailed ? err : new KepubConversionFailed(String(err));
  }
}
