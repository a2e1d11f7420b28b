const analysisSpares: SpareBuffers[] = [];

/**
 * Drops the spares only analyses use (their whole-file reads, their posters' first pages) without waiting for them to
 * idle out; the bytes dropped. Once garbage, they are freed by the next full collection.
 */
export function dropAnalysisSpares(): number {
  return analysisSpares.reduce((n, spares) => n + spares.dropAll(), 0);
}

/**
 * Buffers reused from one piece of work to the next, where each would otherwise take a fresh one (issue 18). A
 * buffer that outlives a few young-generation collections (a page read, checked and decoded across awaits) is
 * promoted, and its memory is freed only by a full collection, which V8 starts once such garbage has grown by some
 * 64 MB: a fresh buffer per book or per page left that much resident at the import's peak, and kept V8's collector
 * busy (~3 s of a 300-book import when every page had one) and glibc's main arena fragmented. At most `count` are
 * kept, of at most `maxBytes` each (a larger one is allocated and dropped), and all are dropped once none was used
 * for `idleMs`.
 */
export class SpareBuffers {
  private readonly spares: Buffer[] = [];
  private drop: NodeJS.Timeout | undefined;
  /** Buffers over a SharedArrayBuffer, which a worker thread reads without a copy. */
  private readonly shared: boolean;
  private readonly idleMs: number;

  constructor(
    private readonly count: number,
    private readonly maxBytes: number,
    opts: {
      shared?: boolean;
      idleMs?: number;
      /** Only analyses use them: {@link dropAnalysisSpares} drops them when the analyses are over. */
      analysis?: boolean;
    } = {},
  ) {
    this.shared = opts.shared ?? false;
    this.idleMs = opts.idleMs ?? 5_000;
    if (opts.analysis) analysisSpares.push(this);
  }

  take(length: number): Buffer {
    if (length > this.maxBytes) return this.alloc(length);
    const i = this.spares.findIndex((b) => b.length >= length);
    if (i >= 0) return this.spares.splice(i, 1)[0]!;
    // a little room, so that the next, slightly larger one fits too
    return this.alloc(Math.ceil(Math.min(this.maxBytes, Math.max(length, 64 * 1024) * 1.25)));
  }

  private alloc(length: number): Buffer {
    return this.shared ? Buffer.from(new SharedArrayBuffer(length)) : Buffer.allocUnsafe(length);
  }

  /** Drops every spare now; the bytes they held. */
  dropAll(): number {
    clearTimeout(this.drop);
    const bytes = this.spares.reduce((n, b) => n + b.length, 0);
    this.spares.length = 0;
    return bytes;
  }

  giveBack(buffer: Buffer): void {
    if (buffer.length > this.maxBytes) return;
    if (this.spares.length >= this.count) this.spares.shift();
    this.spares.push(buffer);
    clearTimeout(this.drop);
    this.drop = setTimeout(() => (this.spares.length = 0), this.idleMs);
    this.drop.unref();
  }
}
