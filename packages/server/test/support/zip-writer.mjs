// A small ZIP writer (stored / deflate, UTF-8 names, Zip64 only for more than 65,534 entries, no data descriptors, fixed 1980-01-01 times so
// equal input gives equal bytes), shared by the tests, the browser tests and the benchmarks. Plain JavaScript
// so that the benchmarks can import it with plain node. Entries: `{ name, data, deflate?, crc? }`; a
// precomputed `crc` lets page bytes reused across many books be checksummed once. A hostile entry comes
// already deflated, `{ name, deflated: { body, size, crc } }`, `size` being whatever its headers should declare.
import { open } from 'node:fs/promises';
import zlib from 'node:zlib';

/**
 * One file of the archive; `deflate` compresses it instead of storing it, `crc` is its CRC-32 when known already.
 * @typedef {{ name: string, data: Uint8Array, deflate?: boolean, crc?: number, deflated?: undefined }
 *   | { name: string, deflated: { body: Uint8Array, size: number, crc: number }, data?: undefined, deflate?: undefined, crc?: undefined }} ZipEntry
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
    const body = e.deflated ? e.deflated.body : e.deflate ? zlib.deflateRawSync(e.data) : e.data;
    const crc = e.deflated ? e.deflated.crc : (e.crc ?? crc32(e.data));
    const size = e.deflated ? e.deflated.size : e.data.length;
    const method = e.deflated || e.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
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
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  // More entries than 16 bits count: the counts say "see the Zip64 end record" (0xFFFF), which precedes.
  const count16 = Math.min(entries.length, 0xffff);
  end.writeUInt16LE(count16, 8);
  end.writeUInt16LE(count16, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  for (const c of centrals) parts.push(c); // not push(...centrals): 200,000 arguments overflow the stack
  if (entries.length >= 0xffff) {
    const zip64End = Buffer.alloc(56);
    zip64End.writeUInt32LE(0x06064b50, 0);
    zip64End.writeBigUInt64LE(44n, 4); // size of the rest of the record
    zip64End.writeUInt16LE(45, 12); // version made by
    zip64End.writeUInt16LE(45, 14); // version needed
    zip64End.writeBigUInt64LE(BigInt(entries.length), 24);
    zip64End.writeBigUInt64LE(BigInt(entries.length), 32);
    zip64End.writeBigUInt64LE(BigInt(centralSize), 40);
    zip64End.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + centralSize), 8);
    locator.writeUInt32LE(1, 16); // total disks
    parts.push(zip64End, locator);
  }
  parts.push(end);
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
