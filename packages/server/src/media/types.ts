import type { Readable } from 'node:stream';

/** One entry of a container (archive or EPUB), as listed from its directory without reading its data. */
export interface ContainerEntry {
  /** Full path inside the container, '/'-separated. */
  name: string;
  /** Uncompressed size in bytes when the container records it. */
  size: number | null;
  /** Detected from the entry's first bytes (magic numbers), not from its extension; null if not detected. */
  mediaType: string | null;
  /** Filled in when dimensions were asked for and the entry is an image whose header gives them. */
  width?: number;
  height?: number;
}

/** One entry's bytes as they inflate, and its uncompressed size when the container records it. */
export interface EntryStream {
  stream: Readable;
  size: number | null;
}

export interface ListingOptions {
  dimensions: boolean;
  verify?: boolean;
  /**
   * With `verify`, readers that read each entry whole (ZIP) hand every entry read whole and checked to this, as it
   * will be listed, with its bytes, valid during the call only (the buffer is reused: copy what you keep). Analysis
   * keeps the first page for the poster and hashes pages, so that neither opens the archive again (issue 18).
   */
  onVerified?: (entry: ContainerEntry, bytes: Buffer) => void;
  /**
   * With `verify`, a reader that reads the whole file once for its listing (a ZIP small enough to hold, see
   * media/archives/zip.ts) hands the file's bytes to this as the listing starts, valid until what it returns settles
   * (the listing waits for it, and fails with it): analysis hashes them for the book's file hash, on a worker thread
   * while the entries are checked, which then needs no second read of the file (issue 18). Not called when the file
   * was read entry by entry.
   */
  onFileBytes?: (bytes: Buffer) => void | Promise<void>;
}

/**
 * Reads one kind of container: lists entries and streams one entry, never extracting the whole file
 * nor holding it in memory (solid archives may need to decode preceding entries: still streamed).
 */
export interface ContainerReader {
  /** The media types (as detected from the file's magic bytes) this reader handles. */
  readonly mediaTypes: readonly string[];
  /**
   * The entries, typed from their first bytes. With `verify`, every page must also read whole, match its checksum
   * and have a readable image header (media/page-check.ts), else it is listed untyped (Komga's rule for an entry
   * that fails to read): for readers whose listing otherwise reads only each entry's start (ZIP), which then read
   * each entry once, whole. RAR, 7z and TAR listings decode every entry whole anyway and fail on damaged data.
   */
  entries(file: string, opts: ListingOptions): Promise<ContainerEntry[]>;
  /**
   * The bytes of one entry, never more than the entry limit (media/limits.ts) whatever its header says;
   * `signal` stops the inflating when the bytes are no longer wanted (the client went away).
   */
  read(file: string, entryName: string, opts?: { signal?: AbortSignal }): Promise<Buffer>;
  /**
   * {@link read}, the bytes lent to `use` only until it settles: they may be in a buffer the reader reuses. For work
   * that looks at an entry and lets it go (the barcode search's pages), without a fresh buffer each time (ZIP).
   */
  lend?<T>(file: string, entryName: string, use: (bytes: Buffer) => Promise<T>): Promise<T>;
  /**
   * The bytes of one entry as they inflate, never held whole (held to the same limits as {@link read}; the
   * stream fails once past them). Readers that can only hand an entry over whole have none: callers then
   * {@link read} it within the buffer budget of media/limits.ts.
   */
  stream?(file: string, entryName: string, opts?: { signal?: AbortSignal }): Promise<EntryStream>;
}

/**
 * A failure with the spec's error code (ERR_1000 … ERR_1033) that analysis stores on the book's media.
 */
export class MediaError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'MediaError';
  }
}

export type { Readable };
