/**
 * Worker thread running 7-Zip (7z-wasm). `callMain` blocks until 7-Zip is done, so it never runs on the
 * main thread. The host file system is mounted with NODEFS: 7-Zip reads the archive with random access
 * (it seeks to the headers, then to the one block it decodes) and finds multi-volume siblings itself.
 * Nothing is ever written to a file system: entry bytes come back through 7-Zip's stdout (`-so`).
 */
import { parentPort } from 'node:worker_threads';
import SevenZipModule, { type SevenZipModuleFactory } from '7z-wasm';

export type SevenZipRequest =
  /** `7z l -slt`: technical listing. */
  | { id: number; op: 'list'; file: string }
  /** One entry's bytes (only the first `max` are kept when given). */
  | { id: number; op: 'extract'; file: string; entry: string; max?: number }
  /**
   * Every entry in archive order through stdout, cut into pieces by the `sizes` of the listing;
   * only the first `max` bytes of each are kept. One pass over a solid archive.
   */
  | { id: number; op: 'heads'; file: string; sizes: number[]; max: number }
  /** Decompresses a single-stream file (xz, bzip2, zstd…) to stdout, posting chunks as they come. */
  | { id: number; op: 'stream'; file: string };

export type SevenZipResponse =
  | {
      id: number;
      kind: 'done';
      rc: number;
      stdout?: string;
      stderr: string;
      data?: Uint8Array;
      heads?: Uint8Array[];
      /** extract: false when the archive has no entry of that name. */
      found?: boolean;
      /** 7-Zip trapped (e.g. "memory access out of bounds"): this result is void, run the job elsewhere. */
      crashed?: boolean;
      /** This worker should not take more jobs (crashed, or served enough to be recycled). */
      retire?: boolean;
    }
  | { id: number; kind: 'chunk'; data: Uint8Array }
  | { id: number; kind: 'failed'; message: string };

/** A password nobody uses: 7-Zip must never wait for one on stdin; an encrypted archive then fails fast. */
const NO_PASSWORD = '-pquire-no-password';
const HOST = '/host';

type Sink = (byte: number) => void;
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

/** Adds the worker's health to every final answer. */
function post(msg: SevenZipResponse, transfer: ArrayBuffer[] = []): void {
  if (msg.kind === 'done') {
    if (broken) msg = { ...msg, crashed: true };
    if (broken || calls >= MAX_CALLS) msg = { ...msg, retire: true };
  }
  parentPort!.postMessage(msg, transfer);
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

function handle(req: SevenZipRequest): void {
  const port = { postMessage: post };
  const archive = hostPath(req.file);
  switch (req.op) {
    case 'list': {
      const out = new ByteSink(64 * 1024);
      sink = (c) => out.push(c);
      const { rc, stderr } = run(['l', '-slt', '-ba', '-sccUTF-8', NO_PASSWORD, '--', archive]);
      port.postMessage({ id: req.id, kind: 'done', rc, stderr, stdout: Buffer.from(out.take()).toString('utf8') });
      return;
    }
    case 'extract': {
      // 7-Zip answers an unknown name with success and no bytes: make sure the entry exists first
      // (a headers-only listing of that one name).
      const listing = new ByteSink(4096);
      sink = (c) => listing.push(c);
      const check = run(['l', '-slt', '-ba', '-spd', '-sccUTF-8', NO_PASSWORD, '--', archive, req.entry]);
      if (check.rc !== 0 || !/^Path = /m.test(Buffer.from(listing.take()).toString('utf8'))) {
        port.postMessage({ id: req.id, kind: 'done', rc: check.rc, stderr: check.stderr, found: false });
        return;
      }
      // grows as 7-Zip writes: a small start, whatever the cap
      const out = new ByteSink(Math.min(req.max ?? Infinity, 1024 * 1024), req.max);
      sink = (c) => out.push(c);
      const { rc, stderr } = run(['x', '-so', '-spd', '-sccUTF-8', NO_PASSWORD, '--', archive, req.entry]);
      const data = out.take();
      port.postMessage({ id: req.id, kind: 'done', rc, stderr, data }, [data.buffer as ArrayBuffer]);
      return;
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
        if (index >= heads.length) return;
        heads[index]!.push(c);
        left--;
        skipEmpty();
      };
      const { rc, stderr } = run(['x', '-so', '-sccUTF-8', NO_PASSWORD, '--', archive]);
      const taken = heads.map((h) => h.take());
      port.postMessage(
        { id: req.id, kind: 'done', rc, stderr, heads: taken },
        taken.map((t) => t.buffer as ArrayBuffer),
      );
      return;
    }
    case 'stream': {
      const CHUNK = 256 * 1024;
      let buf = new Uint8Array(CHUNK);
      let len = 0;
      const flush = () => {
        if (len === 0) return;
        const data = buf.slice(0, len);
        port.postMessage({ id: req.id, kind: 'chunk', data }, [data.buffer as ArrayBuffer]);
        buf = new Uint8Array(CHUNK);
        len = 0;
      };
      sink = (c) => {
        buf[len++] = c;
        if (len === CHUNK) flush();
      };
      const { rc, stderr } = run(['x', '-so', NO_PASSWORD, '--', archive]);
      flush();
      port.postMessage({ id: req.id, kind: 'done', rc, stderr });
      return;
    }
  }
}

parentPort!.on('message', (req: SevenZipRequest) => {
  try {
    if (broken) {
      post({ id: req.id, kind: 'done', rc: 255, stderr: '7-Zip module broken' });
      return;
    }
    handle(req);
  } catch (e) {
    parentPort!.postMessage({ id: req.id, kind: 'failed', message: e instanceof Error ? e.message : String(e) });
  } finally {
    sink = () => {};
  }
});
