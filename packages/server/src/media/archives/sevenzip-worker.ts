/**
 * Worker thread running 7-Zip (7z-wasm), in the pool of `sevenzip.ts`. `callMain` blocks until 7-Zip is done, so it
 * never runs on the main thread. The host file system is mounted with NODEFS: 7-Zip reads the archive with random access
 * (it seeks to the headers, then to the one block it decodes) and finds multi-volume siblings itself.
 * Nothing is ever written to a file system: entry bytes come back through 7-Zip's stdout (`-so`).
 */
import type { MessagePort } from 'node:worker_threads';
import SevenZipModule, { type SevenZipModuleFactory } from '7z-wasm';
import { moving, retireAfterThisCall, serve } from '../worker-thread.js';

export type SevenZipRequest =
  /** `7z l -slt`: technical listing. */
  | { op: 'list'; file: string }
  /** One entry's bytes: 7-Zip is stopped once `max` have come out, when given. */
  | { op: 'extract'; file: string; entry: string; max?: number }
  /**
   * Every entry in archive order through stdout, cut into pieces by the `sizes` of the listing;
   * only the first `max` bytes of each are kept. One pass over a solid archive, stopped once the
   * listed sizes are all out.
   */
  | { op: 'heads'; file: string; sizes: number[]; max: number }
  /** Decompresses a single-stream file (xz, bzip2, zstd…) to stdout, posting chunks to `port` as they come. */
  | { op: 'stream'; file: string; port: MessagePort };

export type SevenZipResponse =
  | {
      kind: 'done';
      rc: number;
      stdout?: string;
      stderr: string;
      data?: Uint8Array;
      heads?: Uint8Array[];
      /** extract: false when the archive has no entry of that name. */
      found?: boolean;
      /** 7-Zip was stopped when the output reached its bound: `rc` and `stderr` tell of the stop, not of the archive. */
      capped?: boolean;
      /** 7-Zip trapped (e.g. "memory access out of bounds"): this result is void, run the job elsewhere. */
      crashed?: boolean;
      /** This worker should not take more jobs (crashed, or served enough to be recycled). */
      retire?: boolean;
    }
  | { kind: 'failed'; message: string };

/** A chunk of a `stream` call's output, posted to its port; `null` after the last one. */
export type SevenZipChunk = Uint8Array;

/** A password nobody uses: 7-Zip must never wait for one on stdin; an encrypted archive then fails fast. */
const NO_PASSWORD = '-pquire-no-password';
const HOST = '/host';

/**
 * Where 7-Zip's stdout goes, a byte at a time. A sink throws {@link Capped} to stop 7-Zip: Emscripten turns an
 * exception from the stdout device into a failed write (EIO), which 7-Zip answers by stopping the extraction and
 * returning, leaving the module usable. Without it, 7-Zip went on decoding a bomb to its end, its output thrown away.
 */
type Sink = (byte: number) => void;
class Capped extends Error {}
let capped = false;
let sink: Sink = () => {};
let errText: number[] = [];

// 7z-wasm is CommonJS whose typings say `export default`: at run time the default import is the factory.
const SevenZip = SevenZipModule as unknown as SevenZipModuleFactory;
const sevenZip = await SevenZip({
  stdin: () => null as unknown as number,
  stdout: (c: number) => sink(c),
  stderr: (c: number) => {
    if (errText.length < 64 * 1024) errText.push(c);
  },
  print: () => {},
  printErr: () => {},
});
sevenZip.FS.mkdir(HOST);
sevenZip.FS.mount(sevenZip.NODEFS, { root: '/' }, HOST);

const hostPath = (file: string) => HOST + file;

/**
 * 7-Zip's `main` is not meant to be re-entered forever: after many calls (or one trap) the WASM heap can be
 * left in a bad state. A trap marks the module broken (its jobs are answered `crashed`, to be retried on a
 * fresh worker), and a worker asks to be retired after a fixed number of commands.
 */
const MAX_CALLS = 100;
let calls = 0;
let broken = false;

function run(args: string[]): { rc: number; stderr: string } {
  errText = [];
  capped = false;
  calls++;
  let rc: number;
  try {
    rc = (sevenZip.callMain(args) as unknown as number) ?? 0;
  } catch (e) {
    const status = (e as { status?: unknown }).status;
    rc = typeof status === 'number' ? status : 255;
    if (typeof status !== 'number') {
      broken = true;
      errText.push(...Buffer.from(String(e)));
    }
  }
  return { rc, stderr: Buffer.from(errText).toString('utf8') };
}

/** Adds the worker's health to every final answer; a broken or much-used worker retires. */
function done(msg: Extract<SevenZipResponse, { kind: 'done' }>): SevenZipResponse {
  if (capped) msg = { ...msg, capped: true };
  if (broken) msg = { ...msg, crashed: true };
  if (broken || calls >= MAX_CALLS) retireAfterThisCall();
  const buffers = [msg.data, ...(msg.heads ?? [])].filter((b) => b !== undefined).map((b) => b.buffer as ArrayBuffer);
  return moving(msg, buffers);
}

/** Growable byte buffer fed one byte at a time by 7-Zip's stdout. */
class ByteSink {
  buf: Uint8Array;
  len = 0;
  constructor(
    initial: number,
    private readonly max = Infinity,
  ) {
    this.buf = new Uint8Array(Math.max(16, Math.min(initial, max)));
  }
  get full(): boolean {
    return this.len >= this.max;
  }
  push(c: number): void {
    if (this.len >= this.max) return;
    if (this.len === this.buf.length) {
      const next = new Uint8Array(Math.min(this.buf.length * 2, this.max));
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.len++] = c;
  }
  take(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** Stops 7-Zip (see {@link Sink}). */
function stop(): never {
  capped = true;
  throw new Capped();
}

function handle(req: SevenZipRequest): SevenZipResponse {
  const archive = hostPath(req.file);
  switch (req.op) {
    case 'list': {
      const out = new ByteSink(64 * 1024);
      sink = (c) => out.push(c);
      const { rc, stderr } = run(['l', '-slt', '-ba', '-sccUTF-8', NO_PASSWORD, '--', archive]);
      return done({ kind: 'done', rc, stderr, stdout: Buffer.from(out.take()).toString('utf8') });
    }
    case 'extract': {
      // 7-Zip answers an unknown name with success and no bytes: make sure the entry exists first
      // (a headers-only listing of that one name).
      const listing = new ByteSink(4096);
      sink = (c) => listing.push(c);
      const check = run(['l', '-slt', '-ba', '-spd', '-sccUTF-8', NO_PASSWORD, '--', archive, req.entry]);
      if (check.rc !== 0 || !/^Path = /m.test(Buffer.from(listing.take()).toString('utf8'))) {
        return done({ kind: 'done', rc: check.rc, stderr: check.stderr, found: false });
      }
      // grows as 7-Zip writes: a small start, whatever the cap
      const out = new ByteSink(Math.min(req.max ?? Infinity, 1024 * 1024), req.max);
      sink = (c) => {
        out.push(c);
        if (out.full) stop();
      };
      const { rc, stderr } = run(['x', '-so', '-spd', '-sccUTF-8', NO_PASSWORD, '--', archive, req.entry]);
      return done({ kind: 'done', rc, stderr, data: out.take() });
    }
    case 'heads': {
      const heads: ByteSink[] = req.sizes.map((s) => new ByteSink(Math.min(s, req.max), req.max));
      let index = 0;
      let left = req.sizes[0] ?? 0;
      const skipEmpty = () => {
        while (index < req.sizes.length && left === 0) left = req.sizes[++index] ?? 0;
      };
      skipEmpty();
      sink = (c) => {
        // more bytes than the listing declared: nothing to keep, stop decoding
        if (index >= heads.length) stop();
        heads[index]!.push(c);
        left--;
        skipEmpty();
      };
      const { rc, stderr } = run(['x', '-so', '-sccUTF-8', NO_PASSWORD, '--', archive]);
      return done({ kind: 'done', rc, stderr, heads: heads.map((h) => h.take()) });
    }
    case 'stream': {
      const CHUNK = 256 * 1024;
      let buf = new Uint8Array(CHUNK);
      let len = 0;
      const flush = () => {
        if (len === 0) return;
        const data: SevenZipChunk = buf.slice(0, len);
        req.port.postMessage(data, [data.buffer as ArrayBuffer]);
        buf = new Uint8Array(CHUNK);
        len = 0;
      };
      sink = (c) => {
        buf[len++] = c;
        if (len === CHUNK) flush();
      };
      const { rc, stderr } = run(['x', '-so', NO_PASSWORD, '--', archive]);
      flush();
      return done({ kind: 'done', rc, stderr });
    }
  }
}

export default serve<SevenZipRequest, SevenZipResponse>((req) => {
  try {
    if (broken) return done({ kind: 'done', rc: 255, stderr: '7-Zip module broken' });
    return handle(req);
  } catch (e) {
    return { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
  } finally {
    sink = () => {};
    // a stream's consumer waits for the end of the chunks, whatever happened
    if (req.op === 'stream') {
      req.port.postMessage(null);
      req.port.close();
    }
  }
});
