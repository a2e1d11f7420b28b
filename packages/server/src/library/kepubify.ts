import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** A kepubify run that takes longer than this is given up (a 503 for the device, which retries later). */
const KEPUBIFY_TIMEOUT_MS = 120_000;
/** How long a conversion is reused for the same file (api.md §8.2: "cached 5 min"). */
const KEPUB_TTL_MS = 5 * 60_000;
/** What the cache holds at most after a sweep (the oldest conversions go first). */
const KEPUB_CACHE_MAX_BYTES = 512 * 1024 * 1024;
const KEPUB = '.kepub.epub';
/** The folders conversions run in, moved out of once done (or left by a process that died converting). */
const RUNNING = '.converting-';

export class KepubConversionFailed extends Error {}

/** A converted book, open: the handle stays readable when a sweep deletes the file meanwhile. */
export interface OpenKepub {
  handle: FileHandle;
  size: number;
}

/**
 * EPUBs converted to KEPUB (koboSpans, which Kobo devices need for their reading statistics and positions) with the
 * administrator's kepubify (`kepubifyPath` setting), kept on disk under the data dir for 5 minutes: a device that
 * downloads a book again (a retry, a second device) is not made to wait for another conversion.
 *
 * Nothing lives only in this process, so instances sharing the data dir share the cache: a conversion is a file named
 * by the program and the EPUB's path, size and modification time (a changed file is another conversion), written in
 * a folder of its own and renamed into place whole; its age is its modification time. Each conversion then sweeps
 * the folder: expired conversions, folders of conversions older than any run, and the oldest beyond the size bound.
 * Concurrent downloads of the same file in one instance wait for one conversion; two instances may each convert it
 * once, the second rename replacing the first with the same book.
 */
export class KepubCache {
  private readonly converting = new Map<string, Promise<void>>();
  private readonly now: () => number;
  private readonly maxBytes: number;

  constructor(
    private readonly dir: string,
    opts: { now?: () => number; maxBytes?: number } = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.maxBytes = opts.maxBytes ?? KEPUB_CACHE_MAX_BYTES;
  }

  /** The EPUB as KEPUB, from the cache when converted less than 5 minutes ago, else converted by `program`. */
  async open(program: string, epubPath: string): Promise<OpenKepub> {
    const { size, mtimeMs } = await stat(epubPath);
    const key = createHash('sha256').update([program, epubPath, size, mtimeMs].join('\u0000')).digest('hex');
    const path = join(this.dir, key + KEPUB);
    const cached = await this.openFresh(path);
    if (cached) return cached;
    let running = this.converting.get(key);
    if (!running) {
      running = this.convert(program, epubPath, path).finally(() => this.converting.delete(key));
      this.converting.set(key, running);
    }
    await running;
    const converted = await this.openFile(path, false);
    // Only a sweep of another instance could have taken it, which needs a full cache: the device retries.
    if (!converted) throw new KepubConversionFailed('the converted book left the cache before it was read');
    void this.sweep().catch(() => undefined);
    return converted;
  }

  private openFresh(path: string) {
    return this.openFile(path, true);
  }

  private async openFile(path: string, onlyFresh: boolean): Promise<OpenKepub | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch {
      return undefined;
    }
    const { size, mtimeMs } = await handle.stat();
    if (!onlyFresh || this.now() - mtimeMs < KEPUB_TTL_MS) return { handle, size };
    await handle.close();
    return undefined;
  }

  /** Runs kepubify with its arguments as an array (no shell reads the book's path) into a folder of its own. */
  private async convert(program: string, epubPath: string, path: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const work = await mkdtemp(join(this.dir, RUNNING));
    try {
      await new Promise<void>((resolve, reject) => {
        execFile(program, ['--output', work, epubPath], { timeout: KEPUBIFY_TIMEOUT_MS }, (err, _stdout, stderr) =>
          err
            ? reject(new KepubConversionFailed(`kepubify failed: ${String(stderr || err.message).trim()}`))
            : resolve(),
        );
      });
      const name = (await readdir(work)).find((f) => f.endsWith(KEPUB));
      if (!name) throw new KepubConversionFailed('kepubify wrote no .kepub.epub file');
      await rename(join(work, name), path);
    } catch (err) {
      throw err instanceof KepubConversionFailed ? err : new KepubConversionFailed(String(err));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** Deletes expired conversions, abandoned conversion folders, and the oldest conversions beyond the bound. */
  async sweep(): Promise<void> {
    const now = this.now();
    const kept: { path: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(this.dir).catch(() => [])) {
      const path = join(this.dir, name);
      const s = await stat(path).catch(() => undefined);
      if (!s) continue;
      const age = now - s.mtimeMs;
      if (name.startsWith(RUNNING)) {
        if (age > KEPUBIFY_TIMEOUT_MS + KEPUB_TTL_MS) await rm(path, { recursive: true, force: true });
      } else if (age >= KEPUB_TTL_MS) await rm(path, { force: true });
      else kept.push({ path, size: s.size, mtimeMs: s.mtimeMs });
    }
    kept.sort((a, b) => b.mtimeMs - a.mtimeMs);
    let total = 0;
    for (const k of kept) {
      total += k.size;
      if (total > this.maxBytes) await rm(k.path, { force: true });
    }
  }
}
