// Page serving throughput: GET /api/v1/books/{id}/pages/{n} of the built server (CBZ books of real JPEG
// pages, analysed by the server itself) against the same JPEG files served as plain static files by a tiny
// fastify + @fastify/static server inside this bench process (no hook in production code). Both run with
// autocannon, 64 connections, ~10 s each. Run `npm run build` first.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import sharp from 'sharp';
import { writeZip } from './support/cbz.mjs';
import { claim, createLibrary, openDatabase, sessionCookie, sleep, startServer } from './support/server.mjs';

const BOOKS = 8;
const PAGES = 12;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;

const work = await mkdtemp(join(tmpdir(), 'quire-bench-pages-'));
const root = join(work, 'library');
const staticDir = join(work, 'static');
const dataDir = join(work, 'data');
await mkdir(join(root, 'Bench Series'), { recursive: true });
await mkdir(staticDir, { recursive: true });

// Real JPEG pages: 1000 x 1500, a gradient with noise, quality 80 (≈ the size of a scanned comic page).
console.log(`generating ${BOOKS} CBZ × ${PAGES} JPEG pages…`);
let pageBytes = 0;
const pageUrls = [];
for (let b = 0; b < BOOKS; b++) {
  const entries = [];
  for (let p = 0; p < PAGES; p++) {
    const jpeg = await sharp({
      create: {
        width: 1000,
        height: 1500,
        channels: 3,
        background: { r: 20 * b, g: 10 * p, b: 128 },
        noise: { type: 'gaussian', mean: 128, sigma: 20 },
      },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
    pageBytes += jpeg.length;
    const name = `page-${String(p + 1).padStart(3, '0')}.jpg`;
    entries.push({ name, data: jpeg });
    await writeFile(join(staticDir, `b${b}-${name}`), jpeg);
  }
  await writeZip(join(root, 'Bench Series', `Book ${b + 1}.cbz`), entries);
}
console.log(`average page: ${(pageBytes / BOOKS / PAGES / 1024).toFixed(0)} KiB`);

let server;
try {
  server = await startServer({ dataDir });
  const base = server.base;
  const authorization = await claim(base);
  await createLibrary(base, authorization, { name: 'Bench', root });

  // Wait until the scan added every book and analysis made them READY (read from the database, read-only).
  const started = Date.now();
  /** @type {{ id: string, page_count: number }[]} */
  let ready = [];
  for (;;) {
    try {
      const db = openDatabase(dataDir);
      ready = /** @type {typeof ready} */ (
        db
          .prepare("select b.id, m.page_count from book b join media m on m.book_id = b.id where m.status = 'READY'")
          .all()
      );
      db.close();
    } catch {
      /* not there yet */
    }
    if (ready.length === BOOKS) break;
    if (Date.now() - started > 120_000) throw new Error(`only ${ready.length}/${BOOKS} books analysed`);
    await sleep(200);
  }
  console.log(`scan + analysis of ${BOOKS} books: ${Date.now() - started} ms`);
  for (const { id, page_count } of ready)
    for (let p = 1; p <= page_count; p++) pageUrls.push(`/api/v1/books/${id}/pages/${p}`);

  // A session cookie, so that each request does not pay for Basic (argon2) authentication.
  const cookie = await sessionCookie(base, authorization);

  /**
   * @param {string} url
   * @param {string[]} paths
   * @param {Record<string, string>} [headers]
   * @returns {Promise<autocannon.Result>}
   */
  const run = (url, paths, headers = {}) =>
    new Promise((resolvePromise, reject) => {
      let i = 0;
      const instance = autocannon(
        {
          url,
          connections: CONNECTIONS,
          duration: DURATION,
          headers,
          requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
        },
        (err, result) => (err ? reject(err) : resolvePromise(result)),
      );
      instance.on('error', reject);
    });

  // warm-up
  await run(base, pageUrls, { cookie }).catch(() => undefined);
  const quire = await run(base, pageUrls, { cookie });

  const plainServer = Fastify();
  await plainServer.register(fastifyStatic, { root: staticDir });
  const staticUrl = await plainServer.listen({ port: 0, host: '127.0.0.1' });
  const staticPaths = [];
  for (let b = 0; b < BOOKS; b++)
    for (let p = 1; p <= PAGES; p++) staticPaths.push(`/b${b}-page-${String(p).padStart(3, '0')}.jpg`);
  await run(staticUrl, staticPaths).catch(() => undefined);
  const plain = await run(staticUrl, staticPaths);
  await plainServer.close();

  const line = (/** @type {string} */ name, /** @type {autocannon.Result} */ r) =>
    `${name.padEnd(28)} ${r.requests.average.toFixed(0).padStart(7)} pages/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${r.errors + r.non2xx}`;
  console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s each, ${pageUrls.length} distinct pages`);
  console.log(line('Quire /pages/{n}', quire));
  console.log(line('static files (baseline)', plain));
  console.log(`ratio Quire / static: ${(quire.requests.average / plain.requests.average).toFixed(2)}`);
} finally {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
}
