import { WorkerPool } from '../../media/workers.js';

/** What the indexing thread is asked: the database file to open its own connection to. */
export interface IndexCall {
  file: string;
}

/** What it answers: the documents it indexed, and whether it analysed the database afterwards. */
export interface IndexAnswer {
  indexed: number;
  analysed: boolean;
}

/**
 * One thread, started for a large backlog only and ended after 30 s without one: indexing a million books needs
 * the thread for minutes once, then never again.
 */
const pool = new WorkerPool<IndexCall | null, IndexAnswer>({
  module: new URL('./sqlite-fts-worker.js', import.meta.url),
  threads: 1,
  idleTimeoutMs: 30_000,
  resourceLimits: { maxOldGenerationSizeMb: 256 },
});

/** Indexes every pending document of the database in `file` on the indexing thread (`sqlite-fts-worker.ts`). */
export async function indexOffThread(file: string): Promise<IndexAnswer> {
  return (await pool.run({ file }))!;
}
