import { setTimeout as delay } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives the memory glibc's allocator holds free back to the system (`malloc_trim(0)`, through koffi's FFI).
 *
 * What an import frees (libvips' decodes on libuv's threads, read and inflate buffers on the main thread) stays in
 * glibc's arenas: `free` returns memory only from the top of an arena and only past a threshold that glibc raises
 * after every large buffer freed, and never the free pages in the middle. After a 300-book import the server sat
 * ~60 MB above where it started a minute after the queue emptied (bench:scan: 176 MB, of which the main arena 48 MB
 * and the threads' arenas 26 MB); one `malloc_trim(0)` brought it to 127 MB (15 and 11 MB). Fewer arenas
 * (`limitMallocArenas`, below) help less: each still keeps what it freed.
 *
 * Not glibc (musl, macOS, Windows) or no koffi build for the platform: nothing to do, and nothing done.
 */
/** `malloc_trim(pad)` on one of libuv's threads: its time grows with the heap it walks. */
type Trim = (pad: number) => Promise<number>;
let trim: Promise<Trim | null> | undefined;

function loadTrim(): Promise<Trim | null> {
  trim ??= (async () => {
    if (process.platform !== 'linux') return null;
    try {
      const { default: koffi } = await import('koffi');
      const malloc_trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
      return (pad: number) =>
        new Promise<number>((resolve, reject) =>
          malloc_trim.async(pad, (err: unknown, released: number) => (err ? reject(err) : resolve(released))),
        );
    } catch {
      return null; // musl has no libc.so.6 nor malloc_trim
    }
  })();
  return trim;
}

/** `malloc_trim(0)`; false where there is no such call. */
export async function releaseFreedMemory(): Promise<boolean> {
  const malloc_trim = await loadTrim();
  if (!malloc_trim) return false;
  await malloc_trim(0);
  return true;
}

/** glibc's `mallopt` parameters (malloc.h): the number of arenas, the size from which a block is mapped alone. */
const M_ARENA_MAX = -8;
const M_MMAP_THRESHOLD = -3;

/**
 * Blocks of at least this size get a mapping of their own, given back to the system when freed. glibc starts at
 * 128 KiB but raises the threshold to the size of every mapped block freed (up to 32 MiB), so after the first
 * few, the images libvips decodes (a 1600×2400 page is 15 MiB as RGBA for the barcode search, 11 MiB as RGB) come
 * from the arenas and stay there once freed, until a trim: with the barcode search on, bench:scan's RSS ran
 * 230–258 MB through the searches; with this threshold, 187–223 MB (issue 18). Setting it stops glibc moving it.
 */
const MMAP_THRESHOLD = 1024 * 1024;

/**
 * glibc's allocator, as `MALLOC_ARENA_MAX=2` and `MALLOC_MMAP_THRESHOLD_=1048576` in the environment would set it
 * (README, Memory), for every way of starting the server. At most `arenas` malloc arenas from now on: glibc
 * otherwise gives each thread that meets a locked arena one of its own, up to 8 per core (libuv's four threads,
 * libvips', the worker threads), and each keeps what it freed. And large blocks mapped alone
 * ({@link MMAP_THRESHOLD}). Called by main.ts before the server's modules load, so only V8's own threads may have
 * arenas already. What the environment sets is left as it is. False where nothing was set (not glibc, no koffi
 * build, or both set by the environment).
 */
export async function limitMallocArenas(arenas = 2): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  const settings: [number, number][] = [];
  if (!process.env.MALLOC_ARENA_MAX) settings.push([M_ARENA_MAX, arenas]);
  if (!process.env.MALLOC_MMAP_THRESHOLD_) settings.push([M_MMAP_THRESHOLD, MMAP_THRESHOLD]);
  if (settings.length === 0) return false;
  try {
    const { default: koffi } = await import('koffi');
    const mallopt = koffi.load('libc.so.6').func('int mallopt(int param, int value)');
    return settings.map(([param, value]) => mallopt(param, value) === 1).every(Boolean);
  } catch {
    return false; // musl has no libc.so.6
  }
}

let gc: (() => void) | undefined;

/** A full garbage collection, unless the heap is too large for one to be quick (then V8 is left to it). */
function collectGarbage(): void {
  // A full collection holds the event loop for a time that grows with the heap: a server's (tens of megabytes) in
  // milliseconds, but a heap past this size (a process hosting more than the server, as a test runner does) for
  // longer than a turn may take (a scan's test saw 1.9 s); V8 collects such a heap by itself.
  if (process.memoryUsage().heapUsed > FORCED_COLLECTION_MAX_HEAP) return;
  gc ??= (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();
  gc();
}
/** The largest heap collected on purpose after work (below). */
const FORCED_COLLECTION_MAX_HEAP = 256 * 1024 * 1024;

/**
 * A full garbage collection, then {@link releaseFreedMemory} a second later: a Buffer's memory (the analysis's read buffers, once
 * dropped) is freed only when V8 collects the Buffer, and a server waiting for work allocates nothing that would
 * make V8 collect. V8's `gc` is reachable only with `--expose-gc`, which every way of starting the server would
 * have to pass: set at run time, it gives new contexts the function.
 */
export async function collectAndReleaseMemory(): Promise<boolean> {
  collectGarbage();
  // V8 frees the memory of collected Buffers on a background thread after the collection: trim once it has
  await delay(1_000);
  return releaseFreedMemory();
}

/**
 * Buffers (`process.memoryUsage().arrayBuffers`) that may pile up while tasks run, over what was alive after the last
 * collection, before a full collection is made at the end of a task. A buffer that outlives V8's young generation
 * (2 MB here, `heap.ts`) is freed only by a full collection, which V8 starts once such memory has grown by some 64 MB:
 * that much garbage was most of an import's peak RSS (issue 18). The collection costs a few milliseconds of the main
 * thread for a server's heap, made at most once per this much garbage.
 */
const BUSY_GARBAGE_BYTES = 32 * 1024 * 1024;

/**
 * When to collect garbage and give freed memory back. After a task: a full collection once garbage buffers have grown
 * by `garbageBytes` ({@link BUSY_GARBAGE_BYTES}). At most every `busyMs` while work goes on (`release`: a long import
 * peaks lower; a trim costs well under a millisecond, plus the page faults of memory used again), and `quietMs` after
 * the last piece of work (`settle`: a full collection first, once the analysis's spare buffers, dropped 5 s after
 * their last use, are garbage; the RSS falls back within seconds of the queue emptying rather than
 * never), and again `lateMs` after it, once idle worker threads have ended.
 */
export function memoryReleaser(
  opts: {
    quietMs?: number;
    busyMs?: number;
    lateMs?: number;
    release?: () => unknown;
    settle?: () => unknown;
    garbageBytes?: number;
    buffersInUse?: () => number;
    collect?: () => void;
  } = {},
) {
  const quietMs = opts.quietMs ?? 8_000;
  // worker threads left idle by the work end after their pool's idle time (zxing 20 s, 7-Zip and EPUB 30 s):
  // what they held is freed only then
  const lateMs = opts.lateMs ?? 35_000;
  const busyMs = opts.busyMs ?? 3_000;
  const release = opts.release ?? releaseFreedMemory;
  const settle = opts.settle ?? collectAndReleaseMemory;
  const garbageBytes = opts.garbageBytes ?? BUSY_GARBAGE_BYTES;
  const buffersInUse = opts.buffersInUse ?? (() => process.memoryUsage().arrayBuffers);
  const collect = opts.collect ?? collectGarbage;
  /** The fewest bytes of buffers seen since the last collection: what was alive then, at most. */
  let alive = buffersInUse();
  let timer: NodeJS.Timeout | undefined;
  let lastRelease = performance.now();
  const run = (how: () => unknown) => {
    clearTimeout(timer);
    timer = undefined;
    lastRelease = performance.now();
    void Promise.resolve()
      .then(how)
      .catch(() => undefined);
  };
  return {
    /** A piece of work ended. */
    workDone(): void {
      const inUse = buffersInUse();
      alive = Math.min(alive, inUse);
      if (inUse - alive > garbageBytes) {
        collect();
        alive = buffersInUse();
      }
      if (performance.now() - lastRelease >= busyMs) run(release);
      clearTimeout(timer);
      timer = setTimeout(() => {
        run(settle);
        timer = setTimeout(() => run(settle), lateMs - quietMs);
        timer.unref();
      }, quietMs);
      timer.unref();
    },
    /** Drops the pending release (shutting down). */
    stop(): void {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
