import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { limitYoungGeneration } from '../heap.js';

/**
 * Starts the worker thread whose module is `url` (the compiled `.js` beside the caller). Running from TypeScript
 * sources (vitest, `tsx watch`) the `.js` does not exist: the `.ts` is started through a one-line bootstrap that
 * registers tsx's loader inside the worker first, as Node 20 does not carry the parent's loaders into workers.
 */
export function startWorker(url: URL, options: { resourceLimits?: ResourceLimits } = {}): Worker {
  let worker: Worker;
  if (existsSync(fileURLToPath(url))) worker = new Worker(url, options);
  else {
    const ts = url.href.replace(/\.js$/, '.ts');
    const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(ts)}); })`;
    worker = new Worker(boot, { ...options, eval: true });
  }
  worker.once('online', limitYoungGeneration);
  return worker;
}
