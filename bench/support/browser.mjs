// Shared by the browser benchmarks: where Chromium is, and percentiles.
import { execFileSync } from 'node:child_process';

/** The Chromium to drive: QUIRE_CHROMIUM, else `chromium` or `chromium-browser` on the PATH. */
export function chromiumPath() {
  if (process.env.QUIRE_CHROMIUM) return process.env.QUIRE_CHROMIUM;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // next name
    }
  }
  throw new Error('chromium not found: apt-get install -y chromium (or set QUIRE_CHROMIUM)');
}

/** The `p`th percentile of ascending `sorted` (nearest rank). */
export const percentile = (/** @type {number[]} */ sorted, /** @type {number} */ p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
];
