// Debian's Chromium for the browser benchmarks, and the percentile they report.
import { execFileSync } from 'node:child_process';

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

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
];

/** The p-th percentile of sorted samples (nearest rank). */
export const percentile = (/** @type {number[]} */ sorted, /** @type {number} */ p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
