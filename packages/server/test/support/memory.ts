import { setTimeout as delay } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * For tests that measure the process's resident memory: a full garbage collection, twice around a second's wait
 * (V8 frees what it collected on a background thread), so that what is left resident is what is still alive.
 */
export async function settleMemory(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  collect();
  await delay(1_000);
  collect();
}
