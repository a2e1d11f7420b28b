// A small ZIP writer (stored / deflate, UTF-8 names, no ZIP64, no data descriptors, fixed 1980-01-01 times so
// equal input gives equal bytes), shared by the tests, the browser tests and the benchmarks. Plain JavaScript
// so that the benchmarks can import it with plain node. Entries: `{ name, data, deflate?, crc? }`; a
// precomputed `crc` lets page bytes reused across many books be checksummed once.
import { open } from 'node:fs/promises';
import zlib from 'node:zlib';

/**
 * One file of the archive; `deflate` compresses it instead of storing it, `crc` is its CRC-32 when known already.
 * @typedef {{ name: string, data: Uint8Array, deflate?: boolean, crc?: number }} ZipEntry
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/**
 * CRC-32 of `data` (zlib's native one when this Node has it, ≥ 20.15).
 * @param {Uint8Array} data
 */
export function crc32(data) {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(data) >>> 0;
  let c = 0xffffffff;
  for (const byte of data) c = /** @type {number} */ (CRC_TABLE[(c ^ byte) & 0xff]) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The pieces of a ZIP file, in order (write them with `writev`, or `Buffer.concat` them).
 * `entries`: `{ name, data, deflate?, crc? }`; images are stored, as most CBZ tools do.
 * @param {readonly ZipEntry[]} entries
 */
export function zipParts(entries) {
  const parts = [];
  const centrals = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const body = e.deflate ? zlib.deflateRawSync(e.data) : e.data;
    const crc = e.crc ?? crc32(e.data);
    const method = e.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  parts.push(...centrals, end);
  return parts;
}

/**
 * A whole ZIP file in one buffer.
 * @param {readonly ZipEntry[]} entries
 */
export function zipBuffer(entries) {
  return Buffer.concat(zipParts(entries));
}

/**
 * Writes a ZIP to `path` without concatenating it first; returns its size in bytes.
 * @param {string} path
 * @param {readonly ZipEntry[]} entries
 */
export async function writeZip(path, entries) {
  const parts = zipParts(entries);
  const fh = await open(path, 'w');
  try {
    // writev takes at most IOV_MAX (1024) buffers per call.
    for (let i = 0; i < parts.length; i += 1000) await fh.writev(parts.slice(i, i + 1000));
  } finally {
    await fh.close();
  }
  return parts.reduce((n, b) => n + b.length, 0);
}
