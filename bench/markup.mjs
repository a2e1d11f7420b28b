// Markup parsing, the in-house parser that media/epub/xml.ts was against media/markup.ts (htmlparser2 + entities),
// in the same process: container.xml, OPF, NCX and nav document of every real EPUB in ../shared/fixtures/real/epub,
// and a generated OPF of 10,000 manifest and spine items (the spine limit). Prints, per set of inputs and parser,
// the median time of a pass over the set and the heap its trees hold, and the heap each parser's code holds once
// loaded. Run `npm run build` first; the old parser is taken
// from git (the last commit that had it) and transpiled with TypeScript into a temporary folder.
// BENCH_RUNS (default 50) sets the timed passes over each set of inputs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const REPO = resolve(import.meta.dirname, '..');
const DIST = join(REPO, 'packages/server/dist');
const FIXTURES = resolve(REPO, '../shared/fixtures/real/epub');
const OLD_PATH = 'packages/server/src/media/epub/xml.ts';
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

if (!globalThis.gc) throw new Error('run with node --expose-gc (npm run bench:markup does)');
const gc = globalThis.gc;
if (!existsSync(join(DIST, 'media/markup.js'))) throw new Error('Build the server first (npm run build)');

/** @typedef {(text: string, opts?: { html?: boolean }) => unknown} Parse */

/** The old parser's source: from the working tree while it exists, else from the commit before its deletion. */
function oldSource() {
  if (existsSync(join(REPO, OLD_PATH))) return readFileSync(join(REPO, OLD_PATH), 'utf8');
  const deleting = execFileSync('git', ['rev-list', '-1', 'HEAD', '--', OLD_PATH], { cwd: REPO, encoding: 'utf8' });
  return execFileSync('git', ['show', `${deleting.trim()}^:${OLD_PATH}`], { cwd: REPO, encoding: 'utf8' });
}

const temp = await mkdtemp(join(tmpdir(), 'quire-bench-markup-'));
const oldFile = join(temp, 'old-xml.mjs');
await writeFile(
  oldFile,
  ts.transpileModule(oldSource(), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
    .outputText,
);
/** Imports a module, and the heap its code and tables hold once loaded (MiB). */
async function load(/** @type {string} */ file) {
  gc();
  const before = process.memoryUsage().heapUsed;
  /** @type {{ parseMarkup: Parse }} */
  const module = await import(pathToFileURL(file).href);
  gc();
  return { module, heap: (process.memoryUsage().heapUsed - before) / 1024 / 1024 };
}
const oldLoad = await load(oldFile);
const newLoad = await load(join(DIST, 'media/markup.js'));
const oldParser = oldLoad.module;
const newParser = newLoad.module;
/** @type {any} */
const epubModule = await import(pathToFileURL(join(DIST, 'media/epub/index.js')).href);
await rm(temp, { recursive: true, force: true });

// ---- inputs ----

/** @type {{ name: string; text: string; html: boolean }[]} */
const inputs = [];
const epubs = readdirSync(FIXTURES).filter((f) => f.endsWith('.epub'));
for (const file of epubs) {
  /** @type {any} */
  let epub;
  try {
    epub = await epubModule.openEpub(join(FIXTURES, file));
  } catch {
    continue; // not an EPUB (zip-as-epub.epub)
  }
  try {
    const read = async (/** @type {string} */ kind, /** @type {string | undefined} */ path, html = false) => {
      if (path && epub.zip.has(path))
        inputs.push({ name: `${file} ${kind}`, text: await epub.zip.readText(path), html });
    };
    await read('container.xml', 'META-INF/container.xml');
    await read('OPF', epub.opfPath);
    await read('NCX', epubModule.ncxItem(epub)?.path);
    await read('nav', epubModule.navItem(epub)?.path, true);
  } finally {
    epub.zip.close();
  }
}
const SPINE = 10_000;
const items = Array.from(
  { length: SPINE },
  (_, i) => `<item id="c${i}" href="text/chapter-${i}.xhtml" media-type="application/xhtml+xml"/>`,
);
const itemrefs = Array.from({ length: SPINE }, (_, i) => `<itemref idref="c${i}"/>`);
const bigOpf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">big</dc:identifier><dc:title>Big &amp; long</dc:title><dc:language>en</dc:language></metadata>
<manifest>${items.join('\n')}</manifest>
<spine>${itemrefs.join('\n')}</spine>
</package>`;
const realInputs = inputs.slice();

// ---- measures ----

/** Median milliseconds of one pass over `docs` for each parser, their passes interleaved so that neither parser
 * always runs on a warmer or more loaded machine. */
function timesOf(/** @type {Parse[]} */ parsers, /** @type {typeof inputs} */ docs) {
  const pass = (/** @type {Parse} */ parse) => {
    const started = performance.now();
    for (const d of docs) parse(d.text, { html: d.html });
    return performance.now() - started;
  };
  for (let i = 0; i < 5; i++) for (const parse of parsers) pass(parse); // warm-up
  const samples = parsers.map(() => /** @type {number[]} */ ([]));
  for (let r = 0; r < RUNS; r++) parsers.forEach((parse, i) => samples[i]?.push(pass(parse)));
  return samples.map((s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)] ?? 0);
}

/** Heap held by the trees of all the inputs, parsed once each (MiB). */
function heapOf(/** @type {Parse} */ parse, /** @type {typeof inputs} */ docs) {
  gc();
  const before = process.memoryUsage().heapUsed;
  const trees = docs.map((d) => parse(d.text, { html: d.html }));
  gc();
  const held = process.memoryUsage().heapUsed - before;
  if (trees.length !== docs.length) throw new Error('unreachable');
  return held / 1024 / 1024;
}

const sets = [
  {
    label: `real EPUBs: ${realInputs.length} documents (container, OPF, NCX, nav of ${epubs.length - 1} books), ${(realInputs.reduce((s, d) => s + d.text.length, 0) / 1024).toFixed(0)} KiB`,
    docs: realInputs,
  },
  {
    label: `generated OPF, ${SPINE.toLocaleString('en')} spine items, ${(bigOpf.length / 1024).toFixed(0)} KiB`,
    docs: [{ name: 'big OPF', text: bigOpf, html: false }],
  },
];
console.log(`markup parsing, median of ${RUNS} runs (node ${process.version})`);
console.log(`\nloading the parser: old ${oldLoad.heap.toFixed(2)} MiB of heap, new ${newLoad.heap.toFixed(2)} MiB`);
for (const { label, docs } of sets) {
  const [oldMs = 0, newMs = 0] = timesOf([oldParser.parseMarkup, newParser.parseMarkup], docs);
  const oldHeap = heapOf(oldParser.parseMarkup, docs);
  const newHeap = heapOf(newParser.parseMarkup, docs);
  console.log(`\n${label}`);
  console.log(
    `  old (xml.ts)            ${oldMs.toFixed(2).padStart(8)} ms   ${oldHeap.toFixed(2).padStart(7)} MiB held`,
  );
  console.log(
    `  new (htmlparser2)       ${newMs.toFixed(2).padStart(8)} ms   ${newHeap.toFixed(2).padStart(7)} MiB held`,
  );
}
