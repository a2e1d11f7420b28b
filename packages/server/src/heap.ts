import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its initial 2 MB. Under the allocation rate of a scan V8 doubles it up to 32 MB and
 * keeps it while the work lasts: held small, a 2,000-book scan peaks ~25 MB lower, for no throughput lost that
 * bench:scan can see. `--max-semi-space-size` does the same but only on the command line, which every way of
 * starting the server (npm start, a service unit, a container, the benchmarks) would have to repeat; this flag is
 * read each time the young generation would grow.
 *
 * Called by main.ts before the server's modules load (loading them grows it too), and again by media/workers.ts
 * whenever a worker thread comes online: starting a worker puts V8's flags back as the command line had them.
 */
export function limitYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
