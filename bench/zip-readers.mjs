// Reading ZIPs with yauzl (what Quire reads with) against @zip.js/zip.js (what it writes with), side by side in
// one run (issue 13 item 7: keep one library if it does both well). Each measure runs in a fresh child process, so
// that its peak resident memory (VmHWM) is its own:
//   list    open a 20,000-entry archive and list every entry's name and size
//   random  open the same archive, find its last entry, read that entry whole
//   stream  stream a 100 MiB deflated entry, chunk by chunk (as a page is served)
// yauzl is driven through Quire's own reader (packages/server/dist: run `npm run build` first); @zip.js through
// its documented API, workers off as Quire configures it: `zip.js` reads a Blob of the file (fs.openAsBlob),
// `zip.js-fd` a Reader of our own making positional reads on a file handle, as yauzl's does.
// Usage: node bench/zip-readers.mjs [--runs 5]
import { execFileSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { open as fsOpen, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { zipBuffer } from './support/cbz.mjs';

const DIST = resolve(import.meta.dirname, '../packages/server/dist');
const ENTRIES = 20_000;
const BIG_ENTRY = 100 * 1024 * 1024;
const LIBRARIES = ['yauzl', 'zip.js', 'zip.js-fd'];
const MEASURES = ['list', 'random', 'stream'];

/** VmRSS and VmHWM of this process, in MiB. */
async function memory() {
  const status = await readFile('/proc/self/status', 'utf8');
  const mb = (/** @type {string} */ key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: mb('VmRSS'), hwm: mb('VmHWM') };
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/**
 * The measures of one library, each a function of the fixture folder that resolves to a number that proves the
 * work was done (entries listed, bytes read).
 * @param {string} library
 * @returns {Promise<Record<string, (dir: string) => Promise<number>>>}
 */
async function measuresOf(library) {
  if (library === 'yauzl') {
    const { openZipFile } = await import(join(DIST, 'media/archives/zip-file-reader.js'));
    const { zipReader } = await import(join(DIST, 'media/archives/zip.js'));
    /** Quire's listing: the directory read at once, then entry by entry (zip.ts `withCentralDirectory`). */
    const walk = async (/** @type {string} */ file, /** @type {(e: any) => boolean} */ visit) => {
      const opened = await openZipFile(file, { decodeStrings: true });
      await opened.preloadDirectory(16 * 1024 * 1024);
      try {
        return await new Promise((resolveWalk, reject) => {
          opened.zip.on('error', reject);
          opened.zip.on('end', () => resolveWalk(undefined));
          opened.zip.on('entry', (/** @type {any} */ entry) => {
            if (visit(entry)) opened.zip.readEntry();
            else resolveWalk(entry);
          });
          opened.zip.readEntry();
        }).then(async (/** @type {any} */ found) => {
          if (!found) return 0;
          const stream = await opened.zip.openReadStreamPromise(found);
          let n = 0;
          for await (const chunk of stream) n += chunk.length;
          return n;
        });
      } finally {
        opened.zip.close();
      }
    };
    return {
      list: async (dir) => {
        /** @type {{ name: string, size: number }[]} */
        const listed = [];
        await walk(join(dir, 'many.cbz'), (e) => listed.push({ name: e.fileName, size: e.uncompressedSize }) > 0);
        return listed.length;
      },
      random: (dir) => walk(join(dir, 'many.cbz'), (e) => e.fileName !== `p${ENTRIES - 1}.bin`),
      stream: async (dir) => {
        const { stream } = await zipReader.stream(join(dir, 'big.cbz'), 'big.bin');
        let n = 0;
        for await (const chunk of stream) n += chunk.length;
        return n;
      },
    };
  }
  const zipJs = await import('@zip.js/zip.js');
  zipJs.configure({ useWebWorkers: false });
  /**
   * Positional reads on a file handle (closed with the ZipReader's last use: see `done`).
   * @extends {zipJs.Reader<string>}
   */
  class FileHandleReader extends zipJs.Reader {
    /** @param {string} file */
    constructor(file) {
      super(file);
      this.file = file;
      /** @type {import('node:fs/promises').FileHandle | undefined} */
      this.handle = undefined;
    }
    /** @override */
    async init() {
      this.handle = await fsOpen(this.file, 'r');
      this.size = (await this.handle.stat()).size;
    }
    /** @override @param {number} index @param {number} length */
    async readUint8Array(index, length) {
      const bytes = new Uint8Array(length);
      const { bytesRead } = await /** @type {import('node:fs/promises').FileHandle} */ (this.handle).read(
        bytes,
        0,
        length,
        index,
      );
      return bytes.subarray(0, bytesRead);
    }
  }
  /** @type {FileHandleReader[]} */
  const handles = [];
  const open = async (/** @type {string} */ file) => {
    if (library === 'zip.js') return new zipJs.ZipReader(new zipJs.BlobReader(await openAsBlob(file)));
    const reader = new FileHandleReader(file);
    handles.push(reader);
    return new zipJs.ZipReader(reader);
  };
  const done = async (/** @type {import('@zip.js/zip.js').ZipReader<unknown>} */ reader) => {
    await reader.close();
    for (const h of handles.splice(0)) await h.handle?.close();
  };
  return {
    list: async (dir) => {
      const reader = await open(join(dir, 'many.cbz'));
      const listed = (await reader.getEntries()).map((e) => ({ name: e.filename, size: e.uncompressedSize }));
      await done(reader);
      return listed.length;
    },
    random: async (dir) => {
      const reader = await open(join(dir, 'many.cbz'));
      let n = 0;
      for await (const e of reader.getEntriesGenerator()) {
        if (e.filename !== `p${ENTRIES - 1}.bin` || e.directory) continue;
        n = (await e.getData(new zipJs.Uint8ArrayWriter())).length;
        break;
      }
      await done(reader);
      return n;
    },
    stream: async (dir) => {
      const reader = await open(join(dir, 'big.cbz'));
      const [entry] = await reader.getEntries();
      let n = 0;
      if (entry && !entry.directory) {
        await entry.getData(new WritableStream({ write: (/** @type {Uint8Array} */ c) => void (n += c.length) }));
      }
      await done(reader);
      return n;
    },
  };
}

/** In a child: one measure of one library, `runs` times; prints `{ ms, result, rssBefore, hwm }` as JSON. */
async function child(
  /** @type {string} */ library,
  /** @type {string} */ measure,
  /** @type {string} */ dir,
  runs = 5,
) {
  const fn = (await measuresOf(library))[measure];
  if (!fn) throw new Error(`no measure ${measure}`);
  const before = await memory();
  /** @type {number[]} */
  const times = [];
  let result = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    result = await fn(dir);
    times.push(performance.now() - started);
  }
  const after = await memory();
  process.stdout.write(
    JSON.stringify({ ms: median(times), first: times[0], result, rssBefore: before.rss, hwm: after.hwm }),
  );
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      child: { type: 'string' },
      measure: { type: 'string' },
      dir: { type: 'string' },
    },
  });
  const runs = Number(values.runs);
  if (values.child)
    return child(values.child, /** @type {string} */ (values.measure), /** @type {string} */ (values.dir), runs);

  const dir = await mkdtemp(join(tmpdir(), 'quire-zip-readers-'));
  try {
    // 20,000 small entries, stored, as pages are; one entry of 100 MiB of incompressible bytes, deflated
    const small = Array.from({ length: ENTRIES }, (_, i) => ({
      name: `p${i}.bin`,
      data: Buffer.alloc(512, i % 251),
    }));
    await writeFile(join(dir, 'many.cbz'), zipBuffer(small));
    const noise = Buffer.alloc(BIG_ENTRY);
    for (let i = 0; i < noise.length; i += 4) noise.writeUInt32LE((Math.imul(i, 2654435761) ^ (i >>> 7)) >>> 0, i);
    await writeFile(join(dir, 'big.cbz'), zipBuffer([{ name: 'big.bin', data: noise, deflate: true }]));

    console.log(`ZIP reading, median of ${runs} runs (first run in brackets); peak RSS of the child process`);
    console.log(
      `(its RSS before the first run in brackets). ${ENTRIES} entries; stream: a ${BIG_ENTRY / 1048576} MiB deflated entry.\n`,
    );
    console.log(['measure'.padEnd(8), ...LIBRARIES.map((l) => l.padEnd(34))].join(' '));
    for (const measure of MEASURES) {
      const cells = LIBRARIES.map((library) => {
        const out = execFileSync(
          process.execPath,
          [import.meta.filename, '--child', library, '--measure', measure, '--dir', dir, '--runs', String(runs)],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        );
        const r = JSON.parse(out);
        const expected = measure === 'list' ? ENTRIES : measure === 'random' ? 512 : BIG_ENTRY;
        if (r.result !== expected) throw new Error(`${library} ${measure}: got ${r.result}, expected ${expected}`);
        return `${r.ms.toFixed(1)} ms (${r.first.toFixed(1)}), ${r.hwm.toFixed(0)} MiB (${r.rssBefore.toFixed(0)})`.padEnd(
          34,
        );
      });
      console.log([measure.padEnd(8), ...cells].join(' '));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
