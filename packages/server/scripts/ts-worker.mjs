// A pooled worker's module run from TypeScript sources (vitest, `tsx watch`), where its compiled `.js` does not
// exist: registers tsx's loader inside the thread first, as Node 20 does not carry the parent's loaders into
// worker threads. `src/media/workers.ts` starts it with the `.ts` to load in `workerData.source`.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
/** @type {{ default: (call: unknown) => unknown }} */
const worker = await import(/** @type {{ source: string }} */ (workerData).source);
export default worker.default;
