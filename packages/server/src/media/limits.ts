import { MediaError } from './types.js';

/**
 * How much work and memory one book may cost (issue 11: a 3 MB ZIP inflating to 3 GiB, a 250 KB PNG of
 * 30000×30000 pixels, a CBZ of 100,000 entries, an EPUB of 50,000 spine items). Every byte, entry and pixel
 * derived from a book file is checked against these before it is inflated or decoded, and inflated bytes are
 * counted again while they stream (a header may lie). Defaults let a real 1,000-page comic scanned at 600 dpi
 * through; each is a setting (config.ts, README's settings table).
 */
export interface MediaLimits {
  /** Largest uncompressed entry, declared or actually inflated (QUIRE_MAX_ENTRY_MB). */
  maxEntryBytes: number;
  /** Largest uncompressed / compressed ratio of an entry larger than {@link ratioFloorBytes} (QUIRE_MAX_ENTRY_RATIO). */
  maxEntryRatio: number;
  /** Entries up to this size are not ratio-checked: small text and blank images compress far, and cost nothing. */
  ratioFloorBytes: number;
  /** Sum of the declared uncompressed sizes of a book's entries (QUIRE_MAX_BOOK_GB). */
  maxBookBytes: number;
  /** Entries of an archive or EPUB, directories and junk included (QUIRE_MAX_ENTRIES). */
  maxEntries: number;
  /** Spine items of an EPUB (QUIRE_MAX_SPINE_ITEMS). */
  maxSpineItems: number;
  /**
   * Largest XML/XHTML document parsed into a tree (EPUB container, OPF, navigation, chapters read for Divina
   * detection; ComicInfo.xml): a tree costs ~10 times its text (QUIRE_MAX_MARKUP_MB).
   */
  maxMarkupBytes: number;
  /** Width × height of an image we agree to decode (QUIRE_MAX_IMAGE_MEGAPIXELS). */
  maxImagePixels: number;
  /** Image decodes/encodes running at once in this process; the others wait (QUIRE_IMAGE_DECODES). */
  maxConcurrentDecodes: number;
  /**
   * Inflated entry bytes held in memory at once by this process to be converted, resized or served from a format
   * that cannot stream (QUIRE_MAX_BUFFERED_MB): a request that would go over waits, one larger than all of it is
   * refused. Pages served as they are stream and cost none of it.
   */
  maxBufferedBytes: number;
}

const MiB = 1024 * 1024;

/**
 * A 600 dpi page of a US comic is ~4000×6200 px (25 MP); stored as PNG, a few dozen MB; an uncompressed 600 dpi
 * A4 TIFF is ~105 MB. 100 MP decoded as RGBA is 400 MB, the most one conversion may hold.
 */
export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  maxEntryBytes: 256 * MiB,
  maxEntryRatio: 100,
  ratioFloorBytes: 1 * MiB,
  maxBookBytes: 32 * 1024 * MiB,
  maxEntries: 20_000,
  maxSpineItems: 10_000,
  maxMarkupBytes: 16 * MiB,
  maxImagePixels: 100_000_000,
  maxConcurrentDecodes: 2,
  maxBufferedBytes: 512 * MiB,
};

let current: MediaLimits = DEFAULT_MEDIA_LIMITS;

/**
 * The limits in force. Process-wide like the readers that apply them (archive readers are module singletons):
 * set once by createApp from the configuration.
 */
export function mediaLimits(): MediaLimits {
  return current;
}

export function setMediaLimits(limits: MediaLimits): void {
  current = limits;
  decodes.resize(limits.maxConcurrentDecodes);
  buffered.resize(limits.maxBufferedBytes);
}

/**
 * A book or entry over a limit. No spec code names this: it is ERR_1008 ("Unknown error getting entries", the
 * archive-level failure of engine.md §4.2) with the reason in brackets, as ERR_1007 lists its entries, so that
 * the book's comment says what was refused: `ERR_1008 [entry "p2.png": 3.0 GiB uncompressed, over the 256 MiB
 * limit]`.
 */
export class MediaLimitError extends MediaError {
  constructor(readonly reason: string) {
    super('ERR_1008', reason);
    this.name = 'MediaLimitError';
  }

  /** What analysis stores as the book's comment. */
  get comment(): string {
    return `${this.code} [${this.reason}]`;
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * MiB) return `${(n / (1024 * MiB)).toFixed(1)} GiB`;
  if (n >= MiB) return `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** An entry's declared sizes, before anything of it is inflated. `compressed` null when the format hides it. */
export function checkDeclaredEntry(name: string, size: number | null, compressed: number | null): void {
  const l = current;
  if (size === null) return;
  if (size > l.maxEntryBytes) {
    throw new MediaLimitError(
      `entry "${name}": ${formatBytes(size)} uncompressed, over the ${formatBytes(l.maxEntryBytes)} limit`,
    );
  }
  if (compressed !== null && size > l.ratioFloorBytes && size > compressed * l.maxEntryRatio) {
    const ratio = compressed > 0 ? Math.round(size / compressed) : Infinity;
    throw new MediaLimitError(
      `entry "${name}": ${formatBytes(size)} from ${formatBytes(compressed)} (ratio ${ratio}), over the ratio limit of ${l.maxEntryRatio}`,
    );
  }
}

/** Bytes actually inflated so far for one entry: stops a header that declared less. */
export function checkInflatedBytes(name: string, inflated: number): void {
  if (inflated > current.maxEntryBytes) {
    throw new MediaLimitError(`entry "${name}": inflates past the ${formatBytes(current.maxEntryBytes)} limit`);
  }
}

/** An archive's entry count as its directory announces it (ZIP's end record), checked before walking it. */
export function checkEntryCount(count: number): void {
  if (count > current.maxEntries) throw new MediaLimitError(`more than ${current.maxEntries} entries`);
}

/**
 * Counts a book's entries and declared bytes as a listing goes, each entry checked by {@link checkDeclaredEntry}:
 * the listing stops at the first entry over a limit, before reading any more of the directory.
 */
export class BookBudget {
  private entries = 0;
  private bytes = 0;

  add(name: string, size: number | null, compressed: number | null): void {
    this.entries++;
    checkEntryCount(this.entries);
    checkDeclaredEntry(name, size, compressed);
    this.bytes += size ?? 0;
    if (this.bytes > current.maxBookBytes) {
      throw new MediaLimitError(`more than ${formatBytes(current.maxBookBytes)} uncompressed in all`);
    }
  }

  /**
   * The ratio limit over the whole archive, for formats that hide each entry's compressed size (a solid 7z
   * compresses its entries as one stream): what the entries declare against the file's size.
   */
  checkArchiveRatio(fileBytes: number): void {
    const l = current;
    if (this.bytes > l.ratioFloorBytes && this.bytes > fileBytes * l.maxEntryRatio) {
      const ratio = fileBytes > 0 ? Math.round(this.bytes / fileBytes) : Infinity;
      throw new MediaLimitError(
        `${formatBytes(this.bytes)} uncompressed from a ${formatBytes(fileBytes)} archive (ratio ${ratio}), over the ratio limit of ${l.maxEntryRatio}`,
      );
    }
  }
}

/** A document about to be parsed into a tree. */
export function checkMarkupBytes(name: string, size: number): void {
  if (size > current.maxMarkupBytes) {
    throw new MediaLimitError(
      `document "${name}": ${formatBytes(size)}, over the ${formatBytes(current.maxMarkupBytes)} limit for markup`,
    );
  }
}

/** Manifest items of an EPUB: each names an entry, so they are held to the entry limit. */
export function checkManifestItems(count: number): void {
  if (count > current.maxEntries) {
    throw new MediaLimitError(`${count} manifest items, over the limit of ${current.maxEntries}`);
  }
}

export function checkSpineItems(count: number): void {
  if (count > current.maxSpineItems) {
    throw new MediaLimitError(`${count} spine items, over the limit of ${current.maxSpineItems}`);
  }
}

/** An image whose header gives more pixels than the limit: never handed to the decoder. */
export class ImageTooLargeError extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(
      `Image of ${width}×${height} pixels is over the limit of ${Math.round(current.maxImagePixels / 1e6)} megapixels`,
    );
    this.name = 'ImageTooLargeError';
  }
}

export function checkImagePixels(width: number, height: number): void {
  if (width * height > current.maxImagePixels) throw new ImageTooLargeError(width, height);
}

/**
 * A weighted semaphore: holders take some weight of its `size`; the others wait in order, first come first served
 * (a heavy request is not overtaken forever by light ones), or give up when their signal aborts.
 */
class Semaphore {
  private held = 0;
  private readonly waiting: { weight: number; grant: () => void }[] = [];

  constructor(private capacity: number) {}

  get size(): number {
    return this.capacity;
  }

  resize(size: number): void {
    this.capacity = Math.max(1, size);
    this.wake();
  }

  /** Waits for `weight` (at most {@link size}); the returned function gives it back, once however often called. */
  async hold(weight: number, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.waiting.length > 0 || this.held + weight > this.capacity) {
      await new Promise<void>((resolve, reject) => {
        const waiter = {
          weight,
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          this.wake(); // a heavy request that gave up may have been holding lighter ones back
          reject(signal!.reason as Error);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(waiter);
      });
    } else this.held += weight;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= weight;
      this.wake();
    };
  }

  /** `fn` while holding `weight`. */
  async run<T>(weight: number, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.hold(weight, signal);
    try {
      signal?.throwIfAborted();
      return await fn();
    } finally {
      release();
    }
  }

  private wake(): void {
    while (this.waiting.length > 0 && this.held + this.waiting[0]!.weight <= this.capacity) {
      const next = this.waiting.shift()!;
      this.held += next.weight;
      next.grant();
    }
  }
}

const decodes = new Semaphore(DEFAULT_MEDIA_LIMITS.maxConcurrentDecodes);

/** Image decodes (sharp/libvips) in this process: each may hold up to maxImagePixels × 4 bytes. */
export const decodeSlots = {
  run: <T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> => decodes.run(1, fn, signal),
};

/** A request for more buffered bytes than the whole budget allows: it could never run. */
export class BufferBudgetError extends MediaLimitError {}

const buffered = new Semaphore(DEFAULT_MEDIA_LIMITS.maxBufferedBytes);

/**
 * Entry bytes held whole in this process (conversions, page thumbnails, barcode search, formats read only whole):
 * a 3 MB ZIP may inflate to the entry limit per request, so concurrent requests share this budget instead of each
 * costing it. `what` names the entry in the refusal of a request larger than the whole budget.
 */
export const bufferedBytes = {
  /** The whole budget, in bytes. */
  get size(): number {
    return buffered.size;
  },
  /** Waits for `bytes` of the budget; the returned function gives them back. */
  hold(bytes: number, what: string, signal?: AbortSignal): Promise<() => void> {
    if (bytes > buffered.size) {
      const reason = `${what}: ${formatBytes(bytes)} to hold in memory, over the ${formatBytes(buffered.size)} buffer budget`;
      return Promise.reject(new BufferBudgetError(reason));
    }
    return buffered.hold(bytes, signal);
  },
  /** `fn` while holding `bytes` of the budget. */
  async run<T>(bytes: number, what: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await bufferedBytes.hold(bytes, what, signal);
    try {
      signal?.throwIfAborted();
      return await fn();
    } finally {
      release();
    }
  },
};
