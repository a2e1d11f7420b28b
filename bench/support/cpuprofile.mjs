// Reads a V8 .cpuprofile (node --cpu-prof) and ranks functions by self time, and by self time summed per
// source file / package. Usable alone: `node bench/support/cpuprofile.mjs <file.cpuprofile> [top]`.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * The parts of V8's profile format read here.
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number } }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples?: number[], timeDeltas?: number[] }} CpuProfile
 */

/**
 * Node ids → self time in ms, from the samples and their time deltas.
 * @param {CpuProfile} profile
 */
function selfTimes(profile) {
  /** @type {Map<number, number>} */
  const self = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  for (const [i, id] of samples.entries()) self.set(id, (self.get(id) ?? 0) + (timeDeltas[i] ?? 0) / 1000);
  return self;
}

/**
 * Shortens a script URL: package name for node_modules, path relative to the repo for our files.
 * @param {string} url
 */
export function where(url) {
  if (!url) return '(native/vm)';
  if (url.startsWith('node:')) return url;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const [first = '', second] = url.slice(nm + 'node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  const i = url.indexOf('packages/');
  return i >= 0 ? url.slice(i) : url;
}

/**
 * `{ totalMs, functions: [{ name, where, line, ms }], files: [{ where, ms }] }`, largest first.
 * @param {CpuProfile} profile
 */
export function summarize(profile) {
  const self = selfTimes(profile);
  /** @type {Map<string, { name: string, where: string, line: number, ms: number }>} */
  const byFunction = new Map();
  /** @type {Map<string, number>} */
  const byFile = new Map();
  let totalMs = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (ms === 0) continue;
    totalMs += ms;
    const cf = node.callFrame;
    const place = where(cf.url);
    const name = cf.functionName || '(anonymous)';
    const key = `${name}\u0000${cf.url}\u0000${cf.lineNumber}`;
    const f = byFunction.get(key) ?? { name, where: place, line: cf.lineNumber + 1, ms: 0 };
    f.ms += ms;
    byFunction.set(key, f);
    const fileKey = cf.url ? place : name; // (program), (idle), (garbage collector) have no URL
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + ms);
  }
  const functions = [...byFunction.values()].sort((a, b) => b.ms - a.ms);
  const files = [...byFile].map(([w, ms]) => ({ where: w, ms })).sort((a, b) => b.ms - a.ms);
  return { totalMs, functions, files };
}

/**
 * Prints the top `top` functions and files of a profile file.
 * @param {string} file
 */
export async function printProfile(file, top = 25, log = console.log) {
  const { totalMs, functions, files } = summarize(JSON.parse(await readFile(file, 'utf8')));
  const pct = (/** @type {number} */ ms) => `${((ms / totalMs) * 100).toFixed(1).padStart(5)} %`;
  log(`CPU profile ${file}: ${(totalMs / 1000).toFixed(1)} s sampled`);
  log(`top ${top} functions by self time:`);
  for (const f of functions.slice(0, top)) {
    const loc = f.where === '(native/vm)' ? '' : `  ${f.where}:${f.line}`;
    log(`  ${(f.ms / 1000).toFixed(2).padStart(7)} s ${pct(f.ms)}  ${f.name}${loc}`);
  }
  log(`top ${top} files / packages by self time:`);
  for (const f of files.slice(0, top)) log(`  ${(f.ms / 1000).toFixed(2).padStart(7)} s ${pct(f.ms)}  ${f.where}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!process.argv[2]) {
    console.error('usage: node bench/support/cpuprofile.mjs <file.cpuprofile> [top]');
    process.exit(2);
  }
  await printProfile(process.argv[2], Number(process.argv[3] ?? 25));
}
